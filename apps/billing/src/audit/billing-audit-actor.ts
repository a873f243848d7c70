import { type McpCall, setMcpSpanAttributes } from '@nest-mcp/core/extensions';
import type { McpAuditActor } from '@nest-mcp/prisma';
import { RequestContext } from '../context/request-context.js';

/**
 * Who made an MCP call, for its audit row (`@nest-mcp/prisma`'s `audit.actor`): the workspace,
 * user and token of the request being served, as the identity guards put them in the request
 * context. The workspace also goes on the call's trace span.
 */
export function billingAuditActor(_call: McpCall): McpAuditActor {
  const state = RequestContext.current();
  if (state?.workspace) setMcpSpanAttributes({ 'app.workspace.id': state.workspace.id, 'app.workspace.slug': state.workspace.slug });
  const principal = state?.principal;
  return { workspaceId: state?.workspace?.id, userId: principal?.userId, tokenId: principal?.tokenId };
}
