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
 * A token issued after such a challenge that still lacks the scope gets a plain refusal instead
 * (`notGranted()`, for `stepUpWindowMs`): the authorization server would not grant it, and a new
 * authorization would only ask the person to sign in again for nothing.
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

  refuse(capability: McpCapability, context: McpRequestContext): Promise<Error> {
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
  async assert(request: Request, required: readonly string[]): Promise<void> {
    if (!this.decide(request, required).allowed) throw await this.refusal(request, required);
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
   * The refusal of scopes the caller's token lacks although the caller was sent to get them by a
   * challenge at `askedAt` (epoch ms) and came back with a token issued since: a plain 403 the model
   * reads (a tool error over MCP), since signing in again would not add them.
   */
  protected notGranted(missing: string[], _principal: McpPrincipal, _request: Request, askedAt: number): Error {
    const again = new Date(askedAt + this.authenticator.settings.stepUpWindowMs).toISOString();
    return new ForbiddenException({
      statusCode: 403,
      error: 'scope_not_granted',
      code: 'scope_not_granted',
      message:
        `This needs ${missing.join(' ')}, which the authorization server did not grant when you were sent to get it ` +
        `(${new Date(askedAt).toISOString()}): signing in again will not add it. Ask an administrator of the identity provider ` +
        `to grant it to you and to this client; this server asks for it again after ${again}`,
    });
  }

  /**
   * What the application does not allow first: a new token would not change it, and a scope
   * challenge would only send the client to re-authorise for nothing. Then a scope the caller was
   * already sent to get, by a token issued since: not granted. Else the step-up challenge, recorded.
   */
  private async refusal(request: Request, required: readonly string[]): Promise<Error> {
    const principal = mcpPrincipalOf(request);
    const decision = this.decide(request, required);
    const missing = decision.allowed ? [...required] : decision.missingFromToken;
    if (principal && !decision.allowed && decision.notAllowed.length) return this.forbidden(decision.notAllowed, principal, request);
    const window = this.authenticator.settings.stepUpWindowMs;
    if (principal && window > 0) {
      const askedAt = await this.askedBefore(principal, missing, window);
      if (askedAt !== undefined) return this.notGranted(missing, principal, request, askedAt);
      await this.authenticator.stepUps.challenged(principal.callerId, missing, Date.now(), window);
    }
    return new McpInsufficientScopeException([...new Set([...(principal?.scopes ?? []), ...required])], {
      message: `Insufficient scope: this needs ${missing.join(' ')}; get a token with that scope`,
      resourceMetadataUrl: this.authenticator.resourceMetadataUrl,
    });
  }

  /**
   * When the caller was last sent to get every one of `missing`, if its token was issued since
   * (the same second counts: `iat` has whole seconds): the latest of those challenges. A token
   * without `iat`, or older than a challenge, may be the one challenged: it is challenged again.
   */
  private async askedBefore(principal: McpPrincipal, missing: string[], window: number): Promise<number | undefined> {
    if (principal.issuedAt === undefined || !missing.length) return undefined;
    const asked = await this.authenticator.stepUps.lastChallenged(principal.callerId, missing, window);
    if (missing.some((scope) => !asked.has(scope))) return undefined;
    const latest = Math.max(...asked.values());
    return principal.issuedAt >= Math.floor(latest / 1000) * 1000 ? latest : undefined;
  }
}
