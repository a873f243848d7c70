import { SetMetadata } from '@nestjs/common';

const MCP_REQUEST_GUARD = 'mcp:requestGuard';

/**
 * Marks a guard that decides on the HTTP request alone (who is calling, how much they may still
 * send), not on what the call does: authentication, a rate limit. Register it as a global guard
 * (`APP_GUARD`).
 *
 * Over MCP it runs once per HTTP request, on the endpoint, before any method is served; the
 * in-process call of a tool, resource, prompt or completion leaves it out. So does a call the
 * layer runs for someone else (`McpDispatcher.runApprovedCall`, a task's run): whoever starts it
 * vouches for the caller (the approval page's session, `McpTaskCallers.actAs`). An unmarked guard
 * is a capability guard: it runs on each capability call, where the capability's metadata and
 * validated input exist, and on the endpoint, where it finds neither and lets the request
 * through. Over REST nothing changes: every guard runs once on its route. Bound to a capability
 * with `@UseGuards()` instead of globally, a request guard would never run over MCP: the boot fails.
 */
export const McpRequestGuard = (): ClassDecorator => SetMetadata(MCP_REQUEST_GUARD, true);

/** Whether a guard (its class, or an instance of it) is marked `@McpRequestGuard()`. */
export function isMcpRequestGuard(guard: unknown): boolean {
  const type = typeof guard === 'function' ? guard : (guard as object | null | undefined)?.constructor;
  return !!type && Reflect.getMetadata(MCP_REQUEST_GUARD, type) === true;
}
