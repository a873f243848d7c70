import type { Request } from 'express';

const RESPONSE_VERSION = Symbol('mcp:responseVersion');

/** Remembers, on the request, the protocol version its answer must announce. */
export function setResponseVersion(req: Request, version: string): void {
  (req as unknown as Record<symbol, string>)[RESPONSE_VERSION] = version;
}

export function responseVersionOf(req: Request): string | undefined {
  return (req as unknown as Record<symbol, string | undefined>)[RESPONSE_VERSION];
}
