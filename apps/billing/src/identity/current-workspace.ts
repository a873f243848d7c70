import { RequestContext } from '../context/request-context.js';

/** The workspace of the current request, resolved by `WorkspaceGuard` for `@WorkspaceScoped()` routes. */
export function currentWorkspaceId(): string {
  const workspace = RequestContext.require().workspace;
  if (!workspace) throw new Error('No workspace resolved: the route must be @WorkspaceScoped()');
  return workspace.id;
}
