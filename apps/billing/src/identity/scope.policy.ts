import { ForbiddenException, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { MCP_SCOPES_METADATA, type McpAccessPolicy, type McpCapability, type McpRequestContext } from '@nest-mcp/core/extensions';
import { InsufficientScopeException, resourceMetadataUrl } from './auth-challenge.js';
import { IDENTITY_CONFIG, type IdentityConfig } from './identity.config.js';
import type { Principal } from './principal.js';
import { principalOf, requestWorkspace, setPrincipal } from './request-principal.js';
import { AuthenticationService } from './authentication.service.js';
import { RequestContext } from '../context/request-context.js';
import { declaredScopes, highestRole, ROLE_SCOPES, type RoleScopes } from './role-scopes.js';
import { WorkspaceResolver } from './workspace.resolver.js';

export type ScopeDecision = { allowed: true } | { allowed: false; missingFromToken: string[]; deniedByRole: string[] };

/**
 * The one place that decides whether a caller may use something: the token must carry every
 * scope it needs AND the person's role in the workspace must allow them. MCP lists, MCP calls and
 * REST routes all ask here, so a list never shows what a call would refuse.
 */
@Injectable()
export class ScopePolicy implements McpAccessPolicy {
  static readonly metadataKey = MCP_SCOPES_METADATA;

  constructor(
    private readonly workspaces: WorkspaceResolver,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(ROLE_SCOPES) private readonly roles: RoleScopes,
    private readonly authentication: AuthenticationService,
  ) {}

  /**
   * An open MCP stream's credentials, checked again (before each message it carries, and every
   * second): a revoked or expired token fails here, and the stream closes. The fresh principal
   * replaces the one the request was opened with, so the checks that follow see today's grants.
   */
  async revalidate(req: Request): Promise<boolean> {
    const principal = await this.authentication.authenticate(req);
    setPrincipal(req, principal);
    const state = RequestContext.current();
    if (state) state.principal = principal;
    return true;
  }

  /** The scopes the application declared (its role mapping): the MCP layer checks every scope name against them at boot. */
  declaredScopes(): readonly string[] {
    return declaredScopes(this.roles);
  }

  decide(principal: Principal, required: string[], req: Request): ScopeDecision {
    if (!required.length) return { allowed: true };
    const roleScopes = this.roleScopes(principal, req);
    const missingFromToken = required.filter((scope) => !principal.scopes.includes(scope));
    const deniedByRole = required.filter((scope) => !roleScopes.includes(scope));
    return missingFromToken.length || deniedByRole.length ? { allowed: false, missingFromToken, deniedByRole } : { allowed: true };
  }

  /** Throws the 403 that says what is missing; returns when the caller may go on. */
  assert(principal: Principal, required: string[], req: Request): void {
    const decision = this.decide(principal, required, req);
    if (!decision.allowed) throw this.refusal(decision, required, principal);
  }

  canUse(capability: McpCapability, context: McpRequestContext): boolean {
    const principal = principalOf(context.httpRequest);
    return !!principal && this.decide(principal, capability.scopes, context.httpRequest).allowed;
  }

  refuse(capability: McpCapability, context: McpRequestContext): Error {
    const principal = principalOf(context.httpRequest);
    const decision = principal ? this.decide(principal, capability.scopes, context.httpRequest) : undefined;
    return this.refusal(
      decision?.allowed === false ? decision : { allowed: false, missingFromToken: capability.scopes, deniedByRole: [] },
      capability.scopes,
      principal,
    );
  }

  /**
   * The role first: a role refusal is a plain 403, since no token would change it (a scope
   * challenge would only send the client to re-authorise for nothing). A scope the token lacks is
   * a step-up challenge naming the scopes it already has plus the missing ones, so a client that
   * replaces its scopes with the challenge's keeps what it could already do.
   */
  private refusal(decision: Extract<ScopeDecision, { allowed: false }>, required: string[], principal?: Principal): Error {
    if (decision.deniedByRole.length) {
      return new ForbiddenException({
        statusCode: 403,
        error: 'forbidden_by_role',
        // The tool error's code over MCP: the model reads why, as the REST client reads `error`.
        code: 'forbidden_by_role',
        message: `Your role does not allow ${decision.deniedByRole.join(' ')} in this workspace; ask a workspace admin`,
      });
    }
    return new InsufficientScopeException(
      `Insufficient scope: this needs ${decision.missingFromToken.join(' ')}; get a token with that scope`,
      [...new Set([...(principal?.scopes ?? []), ...required])],
      resourceMetadataUrl(this.config.publicUrl),
    );
  }

  /** The role that counts: in the request's workspace when it is known, else the highest the person holds. */
  private roleScopes(principal: Principal, req: Request): readonly string[] {
    const named = requestWorkspace(req)?.id ?? this.workspaces.connectionWorkspace(req, principal);
    if (named) {
      const membership = this.workspaces.membership(principal, named);
      return membership ? this.roles[membership.role] : [];
    }
    const role = highestRole(principal.memberships.map((m) => m.role));
    return role ? this.roles[role] : [];
  }
}
