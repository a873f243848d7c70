import { BadRequestException, ForbiddenException, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal, PrincipalMembership } from './principal.js';

/**
 * Which workspace a request acts in (docs/contract.md §3.7): the token's own workspace, else a `workspace_id`
 * argument, else `X-Workspace-Id`, else `?workspace_id=`; a caller with a single workspace needs
 * to name none. Values are workspace ids or slugs. A workspace the caller does not belong to gets
 * the same answer as one that does not exist, so nothing of it leaks.
 */
@Injectable()
export class WorkspaceResolver {
  /** The named workspace (not checked), from the connection: token, header or query. */
  connectionWorkspace(req: Request, principal: Principal): string | undefined {
    return principal.workspaceId ?? headerValue(req) ?? queryValue(req);
  }

  /**
   * @param takesArgument false for a tool whose input has no `workspace_id`: the refusal then
   * names only the ways that caller has (a bound token, `X-Workspace-Id`), never an argument the
   * tool would refuse.
   */
  resolve(req: Request, principal: Principal, argument?: unknown, takesArgument = true): PrincipalMembership {
    const named = typeof argument === 'string' && argument ? argument : (headerValue(req) ?? queryValue(req));
    if (principal.workspaceId) {
      const bound = principal.memberships.find((m) => m.workspaceId === principal.workspaceId);
      if (!bound) throw new ForbiddenException('The workspace of this token is no longer yours');
      if (named && named !== bound.workspaceId && named !== bound.slug) {
        throw new ForbiddenException(`This token is bound to workspace "${bound.slug}"; it cannot act in "${named}"`);
      }
      return bound;
    }
    if (inNoWorkspace(principal)) throw noWorkspaceRefusal();
    if (!named) {
      if (principal.memberships.length === 1) return principal.memberships[0];
      const yours = `Yours: ${principal.memberships.map((m) => m.slug).join(', ') || 'none'}`;
      throw new BadRequestException(
        takesArgument
          ? `Name the workspace: pass workspace_id (id or slug) as an argument, the X-Workspace-Id header or ?workspace_id=. ${yours}`
          : 'This call takes no workspace_id argument and you belong to several workspaces: use a token bound to one ' +
              `workspace, or a connection that sends X-Workspace-Id. ${yours}`,
      );
    }
    const membership = this.membership(principal, named);
    if (!membership) throw new ForbiddenException(`Workspace "${named}" was not found among your workspaces`);
    return membership;
  }

  membership(principal: Principal, idOrSlug: string): PrincipalMembership | undefined {
    return principal.memberships.find((m) => m.workspaceId === idOrSlug || m.slug === idOrSlug);
  }
}

/**
 * A caller who belongs to no workspace at all (e.g. a user just provisioned for a new JWT subject,
 * AUTH_JWT_PROVISION_USERS): nothing they name can be theirs, and no role of theirs refused anything.
 */
export function inNoWorkspace(principal: Principal): boolean {
  return !principal.workspaceId && principal.memberships.length === 0;
}

/** The refusal of a caller {@link inNoWorkspace}: a plain 403 with its own code, as the role refusal is (a tool error over MCP). */
export function noWorkspaceRefusal(): ForbiddenException {
  return new ForbiddenException({
    statusCode: 403,
    error: 'no_workspace',
    code: 'no_workspace',
    message: 'You are not a member of any workspace of this server yet: ask a workspace admin to add you',
  });
}

function headerValue(req: Request): string | undefined {
  const value = req.headers['x-workspace-id'];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function queryValue(req: Request): string | undefined {
  const value = (req.query as Record<string, unknown> | undefined)?.workspace_id;
  return typeof value === 'string' && value ? value : undefined;
}
