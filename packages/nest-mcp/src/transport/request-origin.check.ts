import { HttpStatus } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { responseVersion } from '../protocol/protocol-version.js';
import { jsonRpcError, sendJsonRpcError } from '../protocol/json-rpc-response.js';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Set on a request that `createHostCheck` let through, so that the endpoint does not check it again. */
const HOST_CHECKED = Symbol('mcp.hostChecked');

function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function hostnameOf(hostHeader: string): string {
  // "[::1]:3000" keeps its brackets; "localhost:3000" loses the port.
  return hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : hostHeader.split(':')[0];
}

/**
 * The Host rule. A connection that arrived on a loopback address must name a loopback host or an
 * accepted one (DNS rebinding: a page on another site that resolved its name to 127.0.0.1 could
 * call us otherwise). With `publicHostname` the server is reachable by that name, and every
 * connection must name it or an accepted host.
 */
function refuseHost(req: Request, accepts: (hostname: string) => boolean, publicHostname?: string): string | undefined {
  const loopback = isLoopbackAddress(req.socket.localAddress);
  if (!loopback && !publicHostname) return undefined;
  const host = req.headers.host;
  if (!host) return 'The Host header is required';
  const hostname = hostnameOf(host).toLowerCase();
  if (accepts(hostname) || (loopback && LOOPBACK_HOSTNAMES.has(hostname))) return undefined;
  return loopback
    ? `Host "${host}" is not allowed for a server bound to localhost`
    : `Host "${host}" is not allowed: this server is reached as ${publicHostname}`;
}

/**
 * DNS-rebinding protection of the endpoint (docs/contract.md §1.2), loopback connections only. Returns the
 * refusal message, or undefined when the request may go on.
 */
export function checkHost(req: Request, options: ResolvedMcpOptions): string | undefined {
  if ((req as unknown as Record<symbol, boolean>)[HOST_CHECKED]) return undefined;
  return refuseHost(req, (hostname) => options.allowedHosts.includes(hostname));
}

export interface HostCheckSettings {
  /**
   * Host name of the server's public URL. When set, the server is reachable by name: Host must
   * name it, an `allowedHosts` entry, or (on a loopback connection) a loopback name, whatever
   * address the connection arrived on.
   */
  publicHostname?: string;
  /** Paths (and what is below them) left unchecked, e.g. health probes that reach servers by IP. */
  exemptPaths?: string[];
}

/**
 * The Host rule for every route of the application, not only the MCP endpoint: mount it before
 * anything else. Refusals are `403` (the same as the endpoint's, and unlike `421` not an
 * invitation to retry on another connection); on the MCP path as a JSON-RPC error. Per request:
 * one Set lookup.
 */
export function createHostCheck(options: ResolvedMcpOptions, settings: HostCheckSettings = {}): RequestHandler {
  const accepted = new Set(options.allowedHosts.map((host) => host.toLowerCase()));
  const publicHostname = settings.publicHostname?.toLowerCase();
  if (publicHostname) accepted.add(publicHostname);
  const accepts = (hostname: string) => accepted.has(hostname);
  const exempt = (path: string) => (settings.exemptPaths ?? []).some((prefix) => under(path, prefix));

  return (req: Request, res: Response, next: NextFunction) => {
    const refusal = refuseHost(req, accepts, publicHostname);
    if (!refusal) {
      (req as unknown as Record<symbol, boolean>)[HOST_CHECKED] = true;
      return next();
    }
    const path = req.path.toLowerCase();
    if (exempt(path)) return next();
    if (under(path, options.path)) {
      return sendJsonRpcError(
        res,
        HttpStatus.FORBIDDEN,
        responseVersion(req.headers, options),
        jsonRpcError(null, McpErrorCode.InvalidRequest, refusal),
      );
    }
    res.status(HttpStatus.FORBIDDEN).json({ statusCode: HttpStatus.FORBIDDEN, error: 'Forbidden', message: refusal });
  };
}

function under(path: string, prefix: string): boolean {
  const base = prefix.replace(/\/+$/, '').toLowerCase();
  return path === base || path.startsWith(`${base}/`);
}

/** `Origin`, when a browser sends it, must be this server, localhost, or on the allowlist. */
export function checkOrigin(req: Request, options: ResolvedMcpOptions): string | undefined {
  const origin = req.headers.origin;
  if (origin === undefined || options.allowedOrigins.includes('*') || options.allowedOrigins.includes(origin)) {
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `Origin "${origin}" is not a valid origin`;
  }
  if (url.host === req.headers.host || LOOPBACK_HOSTNAMES.has(url.hostname)) return undefined;
  return `Origin "${origin}" is not allowed to call this MCP endpoint`;
}
