import type { Request } from 'express';
import type { McpSurface } from '../options/mcp-auth.options.js';

/**
 * The surface a request is for: the route Express matched (the path as the controller declared it,
 * never the raw URL: routing ignores case and a trailing slash), or, before routing (a large body is
 * authenticated before it is read), the path its body reader is mounted on.
 */
export function requestSurface(req: Request, mcpPath: string): McpSurface {
  const route = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof route === 'string') return route === mcpPath || route.startsWith(`${mcpPath}/`) ? 'mcp' : 'api';
  return req.baseUrl.replace(/\/+$/, '').toLowerCase() === mcpPath.toLowerCase() ? 'mcp' : 'api';
}
