import { BadRequestException, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import type { ToolError } from '../tool-results/tool-result.envelope.js';

/**
 * `pipe` whose refusal of a named argument says which one: `@Param('id', namedArgumentPipe(ParseUUIDPipe))`
 * answers a REST request whose `:id` is no UUID with a 400 naming `id`, instead of Nest's
 * "Validation failed (uuid is expected)", which does not say what to correct. Any pipe (an instance,
 * or a class built without arguments: `ParseIntPipe`, `new ParseEnumPipe(Status)`) on a parameter read
 * by name (`@Param('id')`, `@Query('page')`, `@Body('amount')`): the name is the one Nest gives the
 * pipe. Over MCP the layer already names the argument of any pipe on a route tool, with the same body.
 *
 * A pipe needs no wrapper when its 400 already names its field (`field` or `errors` in the body):
 * a `ValidationPipe`, a pipe with an `exceptionFactory` of its own.
 */
export function namedArgumentPipe(pipe: PipeTransform | (new () => PipeTransform)): PipeTransform {
  return new NamedArgumentPipe(typeof pipe === 'function' ? new pipe() : pipe);
}

class NamedArgumentPipe implements PipeTransform {
  constructor(private readonly pipe: PipeTransform) {}

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await this.pipe.transform(value, metadata);
    } catch (error) {
      throw typeof metadata.data === 'string' ? namingArgument(error, metadata.data) : error;
    }
  }
}

/**
 * A pipe's 400 about one named argument, as a 400 that names it, unless it already does (`field` or
 * `errors` in its body): `field`, the message prefixed with the name (`` `id`: Validation failed (uuid is expected) ``)
 * and `errors` in the shape of a tool result's errors, as `McpRestValidationPipe` answers a DTO's refusal.
 * Anything else is returned as it is.
 */
export function namingArgument(error: unknown, field: string): unknown {
  if (!(error instanceof BadRequestException)) return error;
  const body = error.getResponse();
  if (typeof body === 'object' && body !== null && ('field' in body || 'errors' in body)) return error;
  const said = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : body;
  const text = Array.isArray(said) ? said.join('; ') : String(said ?? error.message);
  const message = `\`${field}\`: ${text}`;
  const errors: ToolError[] = [{ code: 'invalid_argument', field, message, retryable: false }];
  return new BadRequestException({ statusCode: 400, error: 'Bad Request', field, message, errors }, { cause: error });
}
