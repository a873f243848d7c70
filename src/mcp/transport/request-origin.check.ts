import type { Request } from 'express';
import type { ResolvedMcpOptions } from '../mcp-options.interface.js';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function hostnameOf(hostHeader: string): string {
  // "[::1]:3000" keeps its brackets; "localhost:3000" loses the port.
  return hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : hostHeader.split(':')[0];
}

/**
 * DNS-rebinding protection (SPEC §1): a connection that arrived on a loopback address must name
 * a loopback host, or a page on another site that resolved its name to 127.0.0.1 could call us.
 * Returns the refusal message, or undefined when the request may go on.
 */
export function checkHost(req: Request, options: ResolvedMcpOptions): string | undefined {
  if (!isLoopbackAddress(req.socket.localAddress)) return undefined;
  const host = req.headers.host;
  if (!host) return 'The Host header is required';
  const hostname = hostnameOf(host).toLowerCase();
  if (options.allowedHosts.includes(hostname) || LOOPBACK_HOSTNAMES.has(hostname)) return undefined;
  return `Host "${host}" is not allowed for a server bound to localhost`;
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
