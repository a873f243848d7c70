import { HttpException, HttpStatus } from '@nestjs/common';
import type { Request } from 'express';

/** `<base>/.well-known/oauth-protected-resource` for this request (RFC 9728). */
export function resourceMetadataUrl(req: Request, publicUrl: string | undefined): string {
  return `${publicUrl ?? `${req.protocol}://${req.get('host')}`}/.well-known/oauth-protected-resource`;
}

/**
 * 401 with the challenge that sends an MCP client to its OAuth flow (SPEC §1). The JSON-RPC
 * filter and the REST filter both copy `headers` onto the response.
 */
export class AuthenticationRequiredException extends HttpException {
  constructor(message: string, metadataUrl: string) {
    super(
      { statusCode: HttpStatus.UNAUTHORIZED, error: 'Unauthorized', message, headers: { 'WWW-Authenticate': `Bearer resource_metadata="${metadataUrl}"` } },
      HttpStatus.UNAUTHORIZED,
    );
  }
}

/** 403 naming the scopes a call needs (step-up authorization, MCP authorization spec). */
export class InsufficientScopeException extends HttpException {
  constructor(message: string, scopes: string[], metadataUrl: string) {
    super(
      {
        statusCode: HttpStatus.FORBIDDEN,
        error: 'insufficient_scope',
        message,
        scope: scopes.join(' '),
        headers: {
          'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scopes.join(' ')}", resource_metadata="${metadataUrl}"`,
        },
      },
      HttpStatus.FORBIDDEN,
    );
  }
}
