import type { Request } from 'express';
import type { Channel } from '../generated/prisma/client.js';

/**
 * The channel of an HTTP request, named by the route Express matched (`req.route.path`, the
 * path as the controller declared it), never by the raw URL: routing ignores case, a trailing
 * slash and a `#fragment`, so a string test of the URL could call `POST /MCP` an API request.
 * Before a route matched nothing is written; `api` stands in until then.
 */
export function routeChannel(req: Request, mcpPath: string): Channel {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? channelOfRoute(path, mcpPath) : 'api';
}

/** The channel of a route by the path it is declared at: the MCP endpoint, the admin pages, else the REST API. */
export function channelOfRoute(path: string, mcpPath: string): Channel {
  if (path === mcpPath || path.startsWith(`${mcpPath}/`)) return 'mcp';
  if (path === '/admin' || path.startsWith('/admin/')) return 'panel';
  return 'api';
}
