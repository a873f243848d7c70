import { HttpException, HttpStatus } from '@nestjs/common';
import { isScopeChallenge } from '../access/scope-challenge.js';
import type { ToolError } from '../tool-results/tool-result.envelope.js';

const CODE_BY_STATUS: Record<number, string> = {
  [HttpStatus.BAD_REQUEST]: 'invalid_argument',
  [HttpStatus.UNAUTHORIZED]: 'unauthenticated',
  [HttpStatus.FORBIDDEN]: 'forbidden',
  [HttpStatus.NOT_FOUND]: 'not_found',
  [HttpStatus.CONFLICT]: 'conflict',
  [HttpStatus.GONE]: 'gone',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'too_large',
  [HttpStatus.UNPROCESSABLE_ENTITY]: 'business_rule',
  [HttpStatus.TOO_MANY_REQUESTS]: 'rate_limited',
};

/**
 * A 4xx `HttpException` thrown by a handler is something the caller can act on: it becomes a
 * tool result with `isError: true`. Anything else is not, and stays an exception; so does the
 * OAuth step-up challenge (a 403 with `WWW-Authenticate: Bearer error="insufficient_scope"`),
 * which the endpoint answers as HTTP 403 with its header, for the client to re-authorise.
 * `extraFields` (McpModuleOptions.toolErrorFields) are copied from the exception's body when they
 * are strings.
 */
export function toolErrorsFromException(exception: unknown, extraFields: readonly string[] = []): ToolError[] | undefined {
  if (!(exception instanceof HttpException) || isScopeChallenge(exception)) return undefined;
  const status = exception.getStatus();
  if (status < 400 || status >= 500) return undefined;
  const body = exception.getResponse();
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (Array.isArray(record.errors)) return record.errors as ToolError[];
  const messages = Array.isArray(record.message) ? (record.message as string[]) : [String(record.message ?? exception.message)];
  const code = typeof record.code === 'string' ? record.code : (CODE_BY_STATUS[status] ?? 'request_failed');
  const extras = Object.fromEntries(extraFields.filter((name) => typeof record[name] === 'string').map((name) => [name, record[name]]));
  return messages.map((message) => ({
    code,
    message,
    ...extras,
    ...(typeof record.field === 'string' ? { field: record.field } : {}),
    retryable: status === HttpStatus.TOO_MANY_REQUESTS || status === HttpStatus.CONFLICT,
  }));
}

/** The question to put to the user, when a 4xx exception says more information is needed. */
export function nextQuestionOf(exception: unknown): string | undefined {
  if (!(exception instanceof HttpException)) return undefined;
  const body = exception.getResponse();
  const question = typeof body === 'object' && body !== null ? (body as { nextQuestion?: unknown }).nextQuestion : undefined;
  return typeof question === 'string' ? question : undefined;
}
