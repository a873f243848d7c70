import { ForbiddenException, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { McpInsufficientScopeException } from '@nest-mcp/core';
import type { McpAccessPolicy, McpCapability, McpRequestContext } from '@nest-mcp/core/extensions';
import { McpAuthenticator } from '../authentication/mcp-authenticator.js';
import { mcpPrincipalOf, type McpPrincipal } from '../principal/mcp-principal.js';

/**
 * Whether a caller may use what needs `required`: allowed, or what is missing from the token (a new
 * token would carry it: the step-up challenge) and what the application does not allow this caller
 * whatever the token (a role: a plain 403).
 */
export type McpScopeDecision = { allowed: true } | { allowed: false; missingFromToken: string[]; notAllowed: string[] };

/**
 * The MCP layer's access policy (`mcpAuthExtensions()`): a caller may use a tool, resource or prompt
 * when its token's scopes include every scope the capability declares. Lists show only those, and
 * a call beyond them is refused with the step-up challenge (403 `insufficient_scope` naming the
 * scopes the token has plus the missing ones, so a client that replaces its scopes keeps what it
 * could already do). The same decision serves REST routes (`McpRestModule`, or `assert()` in a guard).
 *
 * An application narrows it in a subclass: `grantedScopes()` (what the token grants here) and
 * `allowedScopes()` (what the caller may do whatever the token, e.g. a role in a workspace), with
 * `forbidden()` the refusal of the latter. Register the subclass as `accessPolicy` instead.
 */
@Injectable()
export class McpScopePolicy implements McpAccessPolicy {
  /** Every scope that exists (`scopes` of `McpAuthModule`): the layer checks decorators' scope names against them at boot. */
  readonly declaredScopes?: () => readonly string[];

  constructor(protected readonly authenticator: McpAuthenticator) {
    const declared = authenticator.settings.scopes;
    if (declared) this.declaredScopes = () => declared;
  }

  /**
   * Stream mode: an open stream's credentials, checked again (before each message it carries, and
   * every `streams.revalidateMs`): a revoked or expired token fails here and the stream closes. The
   * fresh principal replaces the one the request was opened with.
   */
  async revalidate(request: Request): Promise<boolean> {
    await this.authenticator.authenticate(request);
    return true;
  }

  canUse(capability: McpCapability, context: McpRequestContext): boolean {
    return !!mcpPrincipalOf(context.httpRequest) && this.decide(context.httpRequest, capability.scopes).allowed;
  }

  refuse(capability: McpCapability, context: McpRequestContext): Error {
    return this.refusal(context.httpRequest, capability.scopes);
  }

  /** Whether the request's caller may use what needs `required` (no principal: nothing is granted). */
  decide(request: Request, required: readonly string[]): McpScopeDecision {
    if (!required.length) return { allowed: true };
    const principal = mcpPrincipalOf(request);
    if (!principal) return { allowed: false, missingFromToken: [...required], notAllowed: [] };
    const granted = this.grantedScopes(principal, request);
    const allowed = this.allowedScopes(principal, request);
    const missingFromToken = required.filter((scope) => !granted.includes(scope));
    const notAllowed = allowed ? required.filter((scope) => !allowed.includes(scope)) : [];
    return missingFromToken.length || notAllowed.length ? { allowed: false, missingFromToken, notAllowed } : { allowed: true };
  }

  /** Throws the refusal when the request's caller may not use what needs `required` (a REST guard's check). */
  assert(request: Request, required: readonly string[]): void {
    if (!this.decide(request, required).allowed) throw this.refusal(request, required);
  }

  /** What the token grants: its scopes. */
  protected grantedScopes(principal: McpPrincipal, _request: Request): readonly string[] {
    return principal.scopes;
  }

  /** What the caller may do whatever its token says (a role), or undefined: no limit beyond the token. */
  protected allowedScopes(_principal: McpPrincipal, _request: Request): readonly string[] | undefined {
    return undefined;
  }

  /** The refusal of scopes `allowedScopes()` does not allow: a plain 403 (no new token would help, so no challenge). */
  protected forbidden(notAllowed: string[], _principal: McpPrincipal, _request: Request): Error {
    return new ForbiddenException({ statusCode: 403, error: 'forbidden', message: `You may not use ${notAllowed.join(' ')} here` });
  }

  /**
   * What the application does not allow first: a new token would not change it, and a scope
   * challenge would only send the client to re-authorise for nothing. A scope the token lacks is the
   * step-up challenge.
   */
  private refusal(request: Request, required: readonly string[]): Error {
    const principal = mcpPrincipalOf(request);
    const decision = this.decide(request, required);
    const missing = decision.allowed ? [...required] : decision.missingFromToken;
    if (principal && !decision.allowed && decision.notAllowed.length) return this.forbidden(decision.notAllowed, principal, request);
    return new McpInsufficientScopeException([...new Set([...(principal?.scopes ?? []), ...required])], {
      message: `Insufficient scope: this needs ${missing.join(' ')}; get a token with that scope`,
      resourceMetadataUrl: this.authenticator.resourceMetadataUrl,
    });
  }
}
