import type { Request } from 'express';
import type { McpSurface } from '../options/mcp-auth.options.js';

/**
 * The verified caller of a request: what its credential says, never the credential itself.
 * `User` is what the application's `McpUserResolver` (or token verifier) made of it.
 */
export interface McpPrincipal<User = unknown> {
  /** `jwt` for a token of a trusted issuer; a token verifier names its own kind (`personal`, …). */
  kind: string;
  /** A JWT's issuer (`iss`). */
  issuer?: string;
  /** A JWT's subject (`sub`): with the issuer, who the token stands for. */
  subject?: string;
  /**
   * The credential's id, for audit rows: a JWT's is `jwt:<iss>#<sub>[#<jti>]` (percent-encoded
   * parts, so no subject passes for a subject and a jti); a verifier's, its own (a token row's id).
   */
  tokenId: string;
  /** Who the credential stands for in per-caller limits: a JWT's `jwt:<iss>#<sub>` (every token of one subject), else `tokenId`. */
  callerId: string;
  /** The scopes the credential grants. */
  scopes: string[];
  /** The surfaces it was issued for: a JWT's audiences, a verifier's own answer. */
  surfaces: McpSurface[];
  /** When the credential expires (epoch milliseconds), if it does. */
  expiresAt?: number;
  /** When it was issued (epoch milliseconds), if it says: a JWT's `iat`. */
  issuedAt?: number;
  /** The application's user: the `McpUserResolver`'s answer, or what a token verifier set. */
  user?: User;
}

const principals = new WeakMap<object, McpPrincipal>();

/** The verified caller of a request, once `McpAuthGuard` (or `McpAuthenticator.authenticate()`) accepted it; undefined before. */
export function mcpPrincipalOf<User = unknown>(request: Request): McpPrincipal<User> | undefined {
  return principals.get(request) as McpPrincipal<User> | undefined;
}

/**
 * Sets the caller of a request the application builds itself (a queued task's run acting as its
 * caller again, a person signed in on a page of its own): `McpAuthGuard` takes the request as
 * authenticated, and the scope policy reads this principal.
 */
export function setMcpPrincipal(request: Request, principal: McpPrincipal): void {
  principals.set(request, principal);
}
