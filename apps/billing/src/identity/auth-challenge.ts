import { HttpStatus } from '@nestjs/common';
import { HttpExceptionWithHeaders } from '../common/http-exception-with-headers.js';

/** `<public URL>/.well-known/oauth-protected-resource` (RFC 9728); the public URL is fixed at boot. */
export function resourceMetadataUrl(publicUrl: string): string {
  return `${publicUrl}/.well-known/oauth-protected-resource`;
}

/**
 * 401 with the challenge that sends an MCP client to its OAuth flow (docs/contract.md §1.4), in the
 * `WWW-Authenticate` header of both the JSON-RPC and the REST answer. `tokenSent`: a token came and
 * was refused, so the challenge says `error="invalid_token"` and why (RFC 6750 §3); without a
 * token there is no error attribute.
 */
export class AuthenticationRequiredException extends HttpExceptionWithHeaders {
  /** `scopes`: the baseline a client should ask for (the challenge's `scope`), when it has no token yet. */
  constructor(message: string, metadataUrl: string, tokenSent = false, scopes: string[] = []) {
    const error = tokenSent ? `error="invalid_token", error_description="${quotable(message)}", ` : '';
    const scope = scopes.length ? `scope="${scopes.join(' ')}", ` : '';
    super({ statusCode: HttpStatus.UNAUTHORIZED, error: 'Unauthorized', message }, HttpStatus.UNAUTHORIZED, {
      'WWW-Authenticate': `Bearer ${error}${scope}resource_metadata="${metadataUrl}"`,
    });
  }
}

/** Only the characters RFC 6750 allows in `error_description` (printable ASCII but `"` and `\`). */
function quotable(text: string): string {
  return text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '');
}

/** 403 naming the scopes a call needs (step-up authorization, MCP authorization spec). */
export class InsufficientScopeException extends HttpExceptionWithHeaders {
  constructor(message: string, scopes: string[], metadataUrl: string) {
    super({ statusCode: HttpStatus.FORBIDDEN, error: 'insufficient_scope', message, scope: scopes.join(' ') }, HttpStatus.FORBIDDEN, {
      'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scopes.join(' ')}", resource_metadata="${metadataUrl}"`,
    });
  }
}
