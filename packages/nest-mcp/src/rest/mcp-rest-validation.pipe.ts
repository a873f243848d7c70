import {
  BadRequestException,
  Injectable,
  ValidationPipe,
  type ArgumentMetadata,
  type PipeTransform,
  type Type,
  type ValidationPipeOptions,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { ValidationError } from 'class-validator';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { withShapeViolations, type FieldViolation, type ValidatorViolation } from '../schema/dto-argument.validator.js';
import type { ToolError } from '../tool-results/tool-result.envelope.js';

/**
 * The `ValidationPipe` that validates REST bodies, queries and params with the DTOs the MCP layer
 * validates tool arguments with, under the same rules: properties the DTO does not declare are
 * stripped, and refused when `forbidUnknownArguments` is on (the default); a required property
 * must be present and a nested DTO an object (an array of them, an array), which class-validator
 * alone does not hold (`@ValidateNested()` lets `undefined` through), reported first and in the
 * words tool arguments get (`` `contact` is missing``); the value is transformed into the DTO
 * instance. A refusal is a 400 whose body names each field twice: Nest's usual `message` list, and
 * `errors` in the shape of a tool result's errors (`{ code: 'invalid_argument', field, message,
 * retryable: false }`), so a route that is a tool fails the same way over REST and MCP.
 * `validateCustomDecorators` validates the value of a custom parameter decorator too (Nest's option).
 */
export function mcpRestValidationPipe(
  options: { forbidUnknownArguments?: boolean; validateCustomDecorators?: boolean } = {},
): ValidationPipe {
  return new ShapeCheckingValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: options.forbidUnknownArguments ?? true,
    forbidUnknownValues: true,
    transform: true,
    validateCustomDecorators: options.validateCustomDecorators ?? false,
    validationError: { target: false, value: false },
  });
}

/** The 400 of a REST request whose input its DTO refuses. */
export function restValidationException(errors: ValidationError[]): BadRequestException {
  return refusal(flatten(errors, ''));
}

/** The same 400 for violations found otherwise (a tool's raw `inputSchema`, see rest-input-schemas.ts). */
export function restArgumentsException(violations: FieldViolation[]): BadRequestException {
  return refusal(violations);
}

function refusal(violations: FieldViolation[]): BadRequestException {
  const toolErrors: ToolError[] = violations.map(({ field, message }) => ({ code: 'invalid_argument', field, message, retryable: false }));
  return new BadRequestException({
    statusCode: 400,
    error: 'Bad Request',
    message: violations.map((violation) => violation.message),
    errors: toolErrors,
  });
}

/** class-validator's errors, carried from the exception factory to the pipe that words the 400. */
class ClassValidatorErrors extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('class-validator refused the value');
  }
}

/** DTOs the MCP layer cannot describe (a recursive one): no schema, so Nest's rules alone. */
const undescribable = new WeakSet<Function>();

/**
 * Nest's `ValidationPipe`, plus the shape checks tool arguments get (`withShapeViolations`, the
 * same function and the same per-DTO schema as over MCP) on a value it validates as a DTO.
 */
class ShapeCheckingValidationPipe extends ValidationPipe {
  constructor(options: Omit<ValidationPipeOptions, 'exceptionFactory'>) {
    super({ ...options, exceptionFactory: (errors) => new ClassValidatorErrors(errors) });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    let transformed: unknown;
    let found: ValidatorViolation[] = [];
    try {
      transformed = await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof ClassValidatorErrors)) throw error;
      found = flatten(error.errors, '');
    }
    const violations = this.withShape(value, metadata, found);
    if (violations.length) throw refusal(violations);
    return transformed;
  }

  /**
   * A JSON object (or a query) validated as a DTO is held to the DTO's shape; anything else
   * (a primitive, a value the layer already validated and transformed over MCP) to Nest's rules.
   * A missing body is validated as `{}`, as Nest does.
   */
  private withShape(value: unknown, metadata: ArgumentMetadata, found: ValidatorViolation[]): FieldViolation[] {
    const dto = metadata.metatype as Type<unknown> | undefined;
    const input = value ?? {};
    if (!dto || !this.toValidate(metadata) || !isJsonObject(input) || undescribable.has(dto)) return found;
    try {
      return withShapeViolations(dto, input, found);
    } catch {
      undescribable.add(dto);
      return found;
    }
  }
}

/** A parsed JSON body or query string; not a DTO instance, nor an array, a buffer or a primitive. */
function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * `McpRestModule`'s global pipe: `mcpRestValidationPipe()` with the `forbidUnknownArguments` of the
 * application's `McpModule`, read once the modules exist (the MCP module may be configured
 * asynchronously, and need not be global).
 */
@Injectable()
export class McpRestValidationPipe implements PipeTransform {
  private pipe?: ValidationPipe;

  constructor(private readonly moduleRef: ModuleRef) {}

  transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    return this.resolve().transform(value, metadata);
  }

  private resolve(): ValidationPipe {
    if (this.pipe) return this.pipe;
    let options: ResolvedMcpOptions;
    try {
      options = this.moduleRef.get<ResolvedMcpOptions>(MCP_OPTIONS, { strict: false });
    } catch {
      throw new Error('McpRestValidationPipe needs McpModule.forRoot() (or forRootAsync()) in the application');
    }
    return (this.pipe = mcpRestValidationPipe({ forbidUnknownArguments: options.forbidUnknownArguments }));
  }
}

/** Each violated constraint with the dotted path of its field (`lines[0].amount`), as tool argument errors name it. */
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

/** class-validator names the bare property; name the full path, and say what to do with a property that should not be there. */
function rephrase(message: string, property: string, field: string): string {
  if (message.endsWith('should not exist')) return `\`${field}\` is not an accepted field; remove it`;
  if (message.startsWith(`${property} `)) return `\`${field}\`${message.slice(property.length)}`;
  if (message.startsWith(`each value in ${property} `))
    return `each value in \`${field}\`${message.slice(`each value in ${property}`.length)}`;
  return message;
}
