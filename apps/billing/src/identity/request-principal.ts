import type { Request } from 'express';
import { mcpPrincipalOf, setMcpPrincipal, type McpPrincipal } from '@nest-mcp/auth';
import type { BillingUser, Principal } from './principal.js';

type WithWorkspace = Request & { workspace?: { id: string; slug: string } };

/** This app's view of each principal `@nest-mcp/auth` holds (one object per principal, so callers may compare them). */
const views = new WeakMap<McpPrincipal, Principal>();

/**
 * The caller of a request: `@nest-mcp/auth`'s principal (set by `McpAuthGuard`, or by
 * {@link setPrincipal} for a request this app builds), as this app reads it.
 */
export function principalOf(req: Request): Principal | undefined {
  const principal = mcpPrincipalOf<BillingUser>(req);
  if (!principal?.user) return undefined;
  let view = views.get(principal);
  if (!view) {
    const { userId, email, memberships, workspaceId } = principal.user;
    view = {
      userId,
      email,
      tokenId: principal.tokenId,
      kind: principal.kind as Principal['kind'],
      scopes: [...principal.scopes],
      // A JWT's always (its issuer and subject, read back by a task's caller); another credential's when it is not its token id.
      ...(principal.kind === 'jwt' || principal.callerId !== principal.tokenId ? { callerId: principal.callerId } : {}),
      surfaces: [...principal.surfaces],
      ...(workspaceId !== undefined ? { workspaceId } : {}),
      memberships,
    };
    views.set(principal, view);
  }
  return view;
}

/** `@nest-mcp/auth`'s principal for this app's: what the personal-token verifier answers, and what {@link setPrincipal} sets. */
export function mcpPrincipalFor(principal: Principal): McpPrincipal<BillingUser> {
  const user: BillingUser = { userId: principal.userId, email: principal.email, memberships: principal.memberships };
  if (principal.workspaceId !== undefined) user.workspaceId = principal.workspaceId;
  const mcp: McpPrincipal<BillingUser> = {
    kind: principal.kind,
    tokenId: principal.tokenId,
    callerId: principal.callerId ?? principal.tokenId,
    scopes: principal.scopes,
    surfaces: principal.surfaces,
    user,
  };
  views.set(mcp, principal);
  return mcp;
}

/** The caller of a request this app builds or authenticates itself (a task's run, the admin pages): the guards take it as authenticated. */
export function setPrincipal(req: Request, principal: Principal): void {
  setMcpPrincipal(req, mcpPrincipalFor(principal));
}

export function setRequestWorkspace(req: Request, workspace: { id: string; slug: string }): void {
  (req as WithWorkspace).workspace = workspace;
}

export function requestWorkspace(req: Request): { id: string; slug: string } | undefined {
  return (req as WithWorkspace).workspace;
}
