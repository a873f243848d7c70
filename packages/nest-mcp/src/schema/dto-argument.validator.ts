import type { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate, type ValidationError } from 'class-validator';
import { declaredNestedType } from './class-transformer-types.js';
import { argumentShapeViolations } from './argument-shape.check.js';
import { dtoToJsonSchema } from './dto-json-schema.factory.js';
import type { JsonSchema } from './json-schema.types.js';
import type { RawInputSchema } from './raw-json-schema.js';
import { markValidated } from './validated-arguments.js';
import { withoutUnsentProperties } from './unsent-properties.js';

export interface FieldViolation {
  /** Dotted path of the argument, `lines[0].amount`; empty for the arguments object itself. */
  field: string;
  message: string;
}

export type ArgumentValidation<T> = { ok: true; value: T } | { ok: false; violations: FieldViolation[] };

/** The refusal of arguments that are not a JSON object, whatever validates them. */
function notAnObject(): { ok: false; violations: FieldViolation[] } {
  return { ok: false, violations: [{ field: '', message: 'arguments must be a JSON object' }] };
}

/** Each DTO's schema, built once: what it lists as required is held to on every call. */
const schemas = new WeakMap<Type<unknown>, JsonSchema>();

function schemaOf(dto: Type<unknown>): JsonSchema {
  let schema = schemas.get(dto);
  if (!schema) schemas.set(dto, (schema = dtoToJsonSchema(dto, { mode: 'input' })));
  return schema;
}

/** The messages a DTO's author wrote (`@IsObject({ message })`), nested DTOs included. */
const authoredMessages = new WeakMap<Type<unknown>, Set<string>>();

function authoredMessagesOf(dto: Type<unknown>): Set<string> {
  let messages = authoredMessages.get(dto);
  if (!messages) authoredMessages.set(dto, (messages = collectAuthored(dto, new Set(), new Set())));
  return messages;
}

function collectAuthored(dto: Function, into: Set<string>, seen: Set<Function>): Set<string> {
  seen.add(dto);
  for (const metadata of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    if (typeof metadata.message === 'string') into.add(metadata.message);
    const nested = declaredNestedType(dto, metadata.propertyName);
    if (typeof nested === 'function' && !seen.has(nested)) collectAuthored(nested, into, seen);
  }
  return into;
}

/**
 * Validates tool or prompt arguments with the same DTO class that produced the schema, and
 * returns the transformed instance the handler receives (as `@Body()` would over HTTP). Missing
 * required properties and non-objects where a nested DTO belongs are reported in the schema's
 * terms, in place of class-validator's generic messages about those fields; a message the DTO's
 * author wrote for such a field is kept instead (it knows better what to say).
 */
export async function validateArguments<T extends object>(
  dto: Type<T>,
  args: unknown,
  options: { forbidUnknown: boolean },
): Promise<ArgumentValidation<T>> {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return notAnObject();
  }
  // Only what the caller sent is validated as sent: see withoutUnsentProperties.
  const instance = withoutUnsentProperties(plainToInstance(dto, args), args);
  const errors = await validate(instance as object, {
    whitelist: true,
    forbidNonWhitelisted: options.forbidUnknown,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  const violations = withShapeViolations(dto, args as Record<string, unknown>, flatten(errors, ''));
  return violations.length ? { ok: false, violations } : { ok: true, value: markValidated(instance) };
}

/** A class-validator violation, reworded with its field's path, and the message as the DTO gave it. */
export interface ValidatorViolation extends FieldViolation {
  raw: string;
}

/**
 * Every violation of `value` as a `dto`, given what class-validator found in it: the shape its
 * schema promises first (`argumentShapeViolations`, against the DTO's cached schema), then
 * class-validator's findings about fields the shape has not already named. Shared by tool
 * arguments and REST bodies (`mcpRestValidationPipe`), so both channels refuse alike.
 */
export function withShapeViolations(dto: Type<unknown>, value: Record<string, unknown>, found: ValidatorViolation[]): FieldViolation[] {
  const shape = argumentShapeViolations(schemaOf(dto), value);
  const authored = authoredMessagesOf(dto);
  const authoredFor = new Set(found.filter((v) => authored.has(v.raw)).map((v) => v.field));
  const generic = shape.filter((v) => !authoredFor.has(v.field));
  const covered = (field: string) =>
    generic.some((v) => field === v.field || field.startsWith(`${v.field}.`) || field.startsWith(`${v.field}[`));
  return [...generic, ...found.filter((v) => !covered(v.field)).map(({ field, message }) => ({ field, message }))];
}

function flatten(errors: ValidationError[], parent: string): ValidatorViolation[] {
  return errors.flatMap((error) => {
    const field = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field,
      message: rephrase(message, error.property, field),
      raw: message,
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

/**
 * A tool call's arguments against the tool's input: its raw JSON Schema first when it has one
 * (`raw`, see raw-json-schema.ts; the handler then gets the arguments as sent, unless a DTO is
 * given too), then its DTO when it has one; without either, the empty closed schema it publishes
 * (no arguments, or an empty object, unless unknown arguments are allowed). Undefined when there
 * is nothing to check (no schema, no DTO and nothing refused).
 */
export async function validateToolArguments(
  input: Type<object> | undefined,
  args: unknown,
  options: { forbidUnknown: boolean; raw?: RawInputSchema },
): Promise<ArgumentValidation<object> | undefined> {
  if (options.raw) {
    const sent = args ?? {};
    if (typeof sent !== 'object' || Array.isArray(sent)) {
      return notAnObject();
    }
    const violations = options.raw.violations(sent as Record<string, unknown>);
    if (violations.length) return { ok: false, violations };
    if (!input) return { ok: true, value: sent };
  }
  if (input) return validateArguments(input, args ?? {}, options);
  if (args === undefined || args === null) return undefined;
  if (typeof args !== 'object' || Array.isArray(args)) {
    return notAnObject();
  }
  const extra = Object.keys(args);
  if (!extra.length || !options.forbidUnknown) return undefined;
  return {
    ok: false,
    violations: extra.map((field) => ({ field, message: `\`${field}\` is not an accepted argument; this tool takes none` })),
  };
}
