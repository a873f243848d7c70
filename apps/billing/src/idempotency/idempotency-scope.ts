import type { Request } from 'express';
import { RequestContext } from '../context/request-context.js';
import { principalOf } from '../identity/request-principal.js';
import { WorkspaceResolver } from '../identity/workspace.resolver.js';

/** Scope of calls that act in no workspace, or by no known caller (the store's convention). */
const NO_WORKSPACE = '-';
const NO_CALLER = '-';
const workspaces = new WorkspaceResolver();

/**
 * Whose idempotency keys a keyed call or request is among: `<workspace id>:<user id>`. Keys of two
 * workspaces must never meet, or one tenant could replay another's answer; and keys belong to
 * one person, as a payment API scopes them per account, so another member replaying a key runs
 * their own call instead of reading someone else's answer. A call a person approved for someone
 * else keeps the requester's keys.
 *
 * Claims run after the guards, so `WorkspaceGuard` has normally put the workspace in the request
 * context; otherwise (a route or tool outside any workspace) it is resolved the same way (token,
 * `workspace_id` argument, header, query). Calls that resolve no workspace share the scope `-`.
 */
export function idempotencyScope(request: Request | undefined, input: unknown): string {
  const state = RequestContext.current();
  const principal = state?.principal ?? (request ? principalOf(request) : undefined);
  const caller = principal ? (principal.onBehalfOf ?? principal.userId) : undefined;
  let workspace = state?.workspace?.id;
  if (!workspace && principal) {
    try {
      workspace = workspaces.resolve(request!, principal, (input as { workspace_id?: unknown } | undefined)?.workspace_id).workspaceId;
    } catch {
      workspace = undefined;
    }
  }
  return `${workspace ?? NO_WORKSPACE}:${caller ?? NO_CALLER}`;
}
