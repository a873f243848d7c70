import { HttpStatus, UnauthorizedException } from '@nestjs/common';

/** `<public URL>/.well-known/oauth-protected-resource` (RFC 9728): where a client reads how to get a token. */
export function resourceMetadataUrl(publicUrl: string): string {
  return `${publicUrl}/.well-known/oauth-protected-resource`;
}

/**
 * 401 with the challenge that sends an MCP client to its OAuth flow: `WWW-Authenticate: Bearer
 * [error="invalid_token", error_description="…", ][scope="…", ]resource_metadata="…"`, and the JSON
 * body `{ statusCode: 401, error: 'Unauthorized', message }`. `invalidToken`: a token came and was
 * refused, so the challenge says so and why (RFC 6750 §3); without a token there is no error
 * attribute, and `scopes` (the baseline a client asks for first) may be named. The header rides on
 * the exception (`headers`): the MCP endpoint's filter and `McpAuthGuard` put it on the answer.
 */
export class McpAuthenticationRequiredException extends UnauthorizedException {
  readonly headers: Record<string, string>;

  constructor(message: string, options: { resourceMetadataUrl: string; invalidToken?: boolean; scopes?: readonly string[] }) {
    super({ statusCode: HttpStatus.UNAUTHORIZED, error: 'Unauthorized', message });
    const error = options.invalidToken ? `error="invalid_token", error_description="${quotable(message)}", ` : '';
    const scope = options.scopes?.length ? `scope="${options.scopes.join(' ')}", ` : '';
    this.headers = { 'WWW-Authenticate': `Bearer ${error}${scope}resource_metadata="${options.resourceMetadataUrl}"` };
  }
}

/** Only the characters RFC 6750 allows in `error_description` (printable ASCII but `"` and `\`). */
function quotable(text: string): string {
  return text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '');
}
