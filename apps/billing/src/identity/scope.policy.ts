import { ForbiddenException, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { McpAuthenticator, McpScopePolicy, type McpPrincipal } from '@nest-mcp/auth';
import { principalOf, requestWorkspace } from './request-principal.js';
import { highestRole, ROLE_SCOPES, type RoleScopes } from './role-scopes.js';
import { inNoWorkspace, noWorkspaceRefusal, WorkspaceResolver } from './workspace.resolver.js';

/**
 * The one place that decides whether a caller may use something: `@nest-mcp/auth`'s scope policy
 * (the token must carry every scope it needs), narrowed to what the person's role in the workspace
 * allows. MCP lists, MCP calls and REST routes (`ScopeGuard`) all ask here, so a list never shows
 * what a call would refuse.
 */
@Injectable()
export class ScopePolicy extends McpScopePolicy {
  constructor(
    authenticator: McpAuthenticator,
    private readonly workspaces: WorkspaceResolver,
    @Inject(ROLE_SCOPES) private readonly roles: RoleScopes,
  ) {
    super(authenticator);
  }

  /** The role that counts: in the request's workspace when it is known, else the highest the person holds. */
  protected override allowedScopes(_principal: McpPrincipal, req: Request): readonly string[] {
    const principal = principalOf(req);
    if (!principal) return [];
    const named = requestWorkspace(req)?.id ?? this.workspaces.connectionWorkspace(req, principal);
    if (named) {
      const membership = this.workspaces.membership(principal, named);
      return membership ? this.roles[membership.role] : [];
    }
    const role = highestRole(principal.memberships.map((m) => m.role));
    return role ? this.roles[role] : [];
  }

  /**
   * A role refusal is a plain 403, since no token would change it; over MCP, a tool error the model reads.
   * A caller in no workspace at all has no role to blame: they are told so (`no_workspace`).
   */
  protected override forbidden(notAllowed: string[], _principal: McpPrincipal, request: Request): Error {
    const principal = principalOf(request);
    if (principal && inNoWorkspace(principal)) return noWorkspaceRefusal();
    return new ForbiddenException({
      statusCode: 403,
      error: 'forbidden_by_role',
      // The tool error's code over MCP: the model reads why, as the REST client reads `error`.
      code: 'forbidden_by_role',
      message: `Your role does not allow ${notAllowed.join(' ')} in this workspace; ask a workspace admin`,
    });
  }
}
