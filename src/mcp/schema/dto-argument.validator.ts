import type { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { argumentShapeViolations } from './argument-shape.check.js';
import { dtoToJsonSchema } from './dto-json-schema.factory.js';
import type { JsonSchema } from './json-schema.types.js';

export interface FieldViolation {
  /** Dotted path of the argument, `lines[0].amount`; empty for the arguments object itself. */
  field: string;
  message: string;
}

export type ArgumentValidation<T> = { ok: true; value: T } | { ok: false; violations: FieldViolation[] };

/** Each DTO's schema, built once: what it lists as required is held to on every call. */
const schemas = new WeakMap<Type<unknown>, JsonSchema>();

function schemaOf(dto: Type<unknown>): JsonSchema {
  let schema = schemas.get(dto);
  if (!schema) schemas.set(dto, (schema = dtoToJsonSchema(dto, { mode: 'input' })));
  return schema;
}

/**
 * Validates tool or prompt arguments with the same DTO class that produced the schema, and
 * returns the transformed instance the handler receives (as `@Body()` would over HTTP). Missing
 * required properties and non-objects where a nested DTO belongs are reported in the schema's
 * terms; class-validator's own messages about those fields are then left out.
 */
export async function validateArguments<T extends object>(
  dto: Type<T>,
  args: unknown,
  options: { forbidUnknown: boolean },
): Promise<ArgumentValidation<T>> {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return { ok: false, violations: [{ field: '', message: 'arguments must be a JSON object' }] };
  }
  const shape = argumentShapeViolations(schemaOf(dto), args as Record<string, unknown>);
  const instance = plainToInstance(dto, args);
  const errors = await validate(instance as object, {
    whitelist: true,
    forbidNonWhitelisted: options.forbidUnknown,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  const covered = (field: string) => shape.some((v) => field === v.field || field.startsWith(`${v.field}.`) || field.startsWith(`${v.field}[`));
  const violations = [...shape, ...flatten(errors, '').filter((v) => !covered(v.field))];
  return violations.length ? { ok: false, violations } : { ok: true, value: instance };
}

function flatten(errors: ValidationError[], parent: string): FieldViolation[] {
  return errors.flatMap((error) => {
    const field = /^\d+$/.test(error.property)
      ? `${parent}[${error.property}]`
      : parent
        ? `${parent}.${error.property}`
        : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field,
      message: rephrase(message, error.property, field),
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/**
 * class-validator names the bare property ("amount must be a positive number"); name the full
 * path instead, and turn "property x should not exist" into what to do about it.
 */
function rephrase(message: string, property: string, field: string): string {
  if (message.endsWith('should not exist')) return `\`${field}\` is not an accepted argument; remove it`;
  if (message.startsWith(`${property} `)) return `\`${field}\`${message.slice(property.length)}`;
  if (message.startsWith(`each value in ${property} `)) {
    return `each value in \`${field}\`${message.slice(`each value in ${property}`.length)}`;
  }
  return message;
}
