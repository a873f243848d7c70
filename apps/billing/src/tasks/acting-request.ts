import type { Request } from 'express';
import type { Channel } from '../generated/prisma/client.js';
import type { Principal } from '../identity/principal.js';
import { setPrincipal, setRequestWorkspace } from '../identity/request-principal.js';

/**
 * The request a task's run acts through: no HTTP behind it, only what the application's guards,
 * policy, rate limiter and call hook read of a request.
 * - the principal is set, so `McpAuthGuard` takes it as authenticated (it was checked again
 *   just before, see `BillingTaskCallers.actAs`);
 * - the workspace the creating request acted in is set, and named in `X-Workspace-Id`, so that
 *   `WorkspaceGuard` resolves the same one whichever way the request named it (token, header,
 *   argument, only membership);
 * - an MCP request's route is the MCP endpoint, so its channel reads `mcp` everywhere.
 */
export function actingRequest(
  principal: Principal,
  workspace: { id: string; slug: string } | undefined,
  channel: Channel,
  mcpPath: string,
): Request {
  const headers: Record<string, string> = workspace ? { 'x-workspace-id': workspace.id } : {};
  const path = channel === 'mcp' ? mcpPath : '/';
  const header = (name: string) => headers[name.toLowerCase()];
  const request = {
    method: 'POST',
    url: path,
    originalUrl: path,
    path,
    baseUrl: '',
    headers,
    query: {},
    params: {},
    body: undefined,
    ...(channel === 'mcp' ? { route: { path: mcpPath } } : {}),
    get: header,
    header,
  } as unknown as Request;
  setPrincipal(request, principal);
  if (workspace) setRequestWorkspace(request, workspace);
  return request;
}
