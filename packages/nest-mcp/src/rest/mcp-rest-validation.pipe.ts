import { BadRequestException, Injectable, ValidationPipe, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { ValidationError } from 'class-validator';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import type { ToolError } from '../tool-results/tool-result.envelope.js';

/**
 * The `ValidationPipe` that validates REST bodies, queries and params with the DTOs the MCP layer
 * validates tool arguments with, under the same rules: properties the DTO does not declare are
 * stripped, and refused when `forbidUnknownArguments` is on (the default); the value is transformed
 * into the DTO instance. A refusal is a 400 whose body names each field twice: Nest's usual
 * `message` list, and `errors` in the shape of a tool result's errors
 * (`{ code: 'invalid_argument', field, message, retryable: false }`), so a route that is a tool
 * fails the same way over REST and MCP.
 */
export function mcpRestValidationPipe(options: { forbidUnknownArguments?: boolean } = {}): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: options.forbidUnknownArguments ?? true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => restValidationException(errors),
  });
}

/** The 400 of a REST request whose input its DTO refuses. */
export function restValidationException(errors: ValidationError[]): BadRequestException {
  const violations = flatten(errors, '');
  const toolErrors: ToolError[] = violations.map(({ field, message }) => ({ code: 'invalid_argument', field, message, retryable: false }));
  return new BadRequestException({
    statusCode: 400,
    error: 'Bad Request',
    message: violations.map((violation) => violation.message),
    errors: toolErrors,
  });
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
function flatten(errors: ValidationError[], parent: string): Array<{ field: string; message: string }> {
  return errors.flatMap((error) => {
    const field = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message: rephrase(message, error.property, field) }));
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
