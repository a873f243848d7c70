import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { MCP_OPTIONS, McpTaskRefused, type McpTaskCallers, type ResolvedMcpOptions } from '@nest-mcp/core/extensions';
import { mcpPrincipalOf, setMcpPrincipal, type McpPrincipal } from '../principal/mcp-principal.js';

/** What a task keeps of its caller: the principal without the application's user (any shape, maybe not JSON). */
type StoredPrincipal = Omit<McpPrincipal, 'user'>;

/**
 * The layer's `taskCallers` for an application whose callers are `McpAuthModule` principals (in
 * `mcpAuthExtensions()`): a task, run by a worker on any replica long after its request is gone,
 * acts as the principal that created it.
 *
 * `capture` keeps the principal (issuer, subject, scopes, token id: never the token). `actAs`
 * refuses a run once the credential that started it has expired, as a request carrying it would be
 * refused now, then runs the work with a request of the MCP endpoint whose principal is set: the
 * guard takes it as authenticated, the scope policy reads its scopes. An application that can
 * revoke credentials or change grants (a token table, memberships) checks them again in a
 * `McpTaskCallers` of its own.
 */
@Injectable()
export class McpAuthTaskCallers implements McpTaskCallers {
  constructor(@Inject(MCP_OPTIONS) private readonly mcp: ResolvedMcpOptions) {}

  async capture(request: Request): Promise<{ caller: Record<string, unknown> }> {
    const principal = mcpPrincipalOf(request);
    if (!principal) throw new McpTaskRefused('A task needs an authenticated caller: this request has none');
    const { user: _user, ...stored } = principal;
    return { caller: { ...stored } };
  }

  async actAs<T>(caller: Record<string, unknown>, work: (request: Request) => Promise<T>): Promise<T> {
    const principal = caller as unknown as StoredPrincipal;
    if (principal.expiresAt !== undefined && principal.expiresAt <= Date.now()) {
      throw new McpTaskRefused('The access token that started this task has expired: call the tool again with a valid token');
    }
    const request = endpointRequest(this.mcp.path);
    setMcpPrincipal(request, principal);
    return work(request);
  }
}

/** A request of the MCP endpoint with no HTTP behind it: what guards, the policy and the call hook read of one. */
function endpointRequest(path: string): Request {
  const headers: Record<string, string> = {};
  const header = (name: string) => headers[name.toLowerCase()];
  return {
    method: 'POST',
    url: path,
    originalUrl: path,
    path,
    baseUrl: '',
    headers,
    query: {},
    params: {},
    body: undefined,
    route: { path },
    get: header,
    header,
  } as unknown as Request;
}
