import { ForbiddenException, HttpException, HttpStatus } from '@nestjs/common';

/**
 * The OAuth step-up challenge (RFC 6750 §3.1, MCP authorization "insufficient scope"): HTTP 403
 * with `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"`. An access policy returns
 * it from `refuse()` when the caller's token lacks a scope that a new token would carry; the MCP
 * endpoint keeps it an HTTP 403 with its header (clients re-authorise with the scopes it names),
 * and so does a REST route behind `McpRestModule`. Any other refusal is a plain permission error:
 * over MCP, a tool result with `isError: true` (see docs/protocol.md, "Refusals").
 *
 * `scopes`: the scopes to ask for (what the token has plus what is missing, so a client that
 * replaces its scopes keeps what it could already do). The headers ride on the exception
 * (`headers`), not in the JSON body.
 */
export class McpInsufficientScopeException extends ForbiddenException {
  readonly headers: Record<string, string>;

  constructor(scopes: readonly string[], options: { message?: string; resourceMetadataUrl?: string } = {}) {
    const scope = scopes.join(' ');
    super({
      statusCode: HttpStatus.FORBIDDEN,
      error: 'insufficient_scope',
      message: options.message ?? `Insufficient scope: this needs ${scope}; get a token with that scope`,
      scope,
    });
    const metadata = options.resourceMetadataUrl ? `, resource_metadata="${options.resourceMetadataUrl}"` : '';
    this.headers = { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"${metadata}` };
  }
}

/**
 * The response headers an HTTP exception asks for: its own `headers` property, or `headers` in
 * its response object (the convention of an application's exception with headers).
 */
export function exceptionHeaders(exception: HttpException): Record<string, string> {
  const own = (exception as { headers?: unknown }).headers;
  const body = exception.getResponse();
  const inBody = typeof body === 'object' && body !== null ? (body as { headers?: unknown }).headers : undefined;
  return { ...stringRecord(inBody), ...stringRecord(own) };
}

/** Whether an exception is the step-up challenge: a 403 whose `WWW-Authenticate` says `insufficient_scope`. */
export function isScopeChallenge(exception: unknown): boolean {
  if (!(exception instanceof HttpException) || exception.getStatus() !== HttpStatus.FORBIDDEN) return false;
  const challenge = Object.entries(exceptionHeaders(exception)).find(([name]) => name.toLowerCase() === 'www-authenticate')?.[1];
  return typeof challenge === 'string' && /error="?insufficient_scope"?/i.test(challenge);
}

/** A plain permission error: a 403 that is not the step-up challenge (a role, a workspace, a rule). */
export function isPlainRefusal(exception: unknown): exception is HttpException {
  return exception instanceof HttpException && exception.getStatus() === HttpStatus.FORBIDDEN && !isScopeChallenge(exception);
}

function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
