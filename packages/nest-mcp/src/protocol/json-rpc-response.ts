import type { Response } from 'express';
import type { JSONRPCErrorResponse, RequestId } from '@modelcontextprotocol/server';
import { encodeWithRaw } from '../tool-results/raw-json.js';

/** Headers every response of the endpoint carries (docs/contract.md §1.3). */
export function setMcpResponseHeaders(res: Response, protocolVersion: string): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('MCP-Protocol-Version', protocolVersion);
}

export function jsonRpcError(id: RequestId | null, code: number, message: string, data?: unknown): JSONRPCErrorResponse {
  return {
    jsonrpc: '2.0',
    id: id as RequestId,
    error: data === undefined ? { code, message } : { code, message, data },
  };
}

/** Writes a JSON-RPC error straight to the socket: used before Nest's pipeline has a say. */
export function sendJsonRpcError(
  res: Response,
  status: number,
  protocolVersion: string,
  error: JSONRPCErrorResponse,
  headers: Record<string, string> = {},
): void {
  setMcpResponseHeaders(res, protocolVersion);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  sendJson(res, status, error);
}

/**
 * Writes a JSON answer with `res.end`: Express' `res.json()` would also hash the body for an ETag,
 * which a `no-store` POST answer never uses (a measurable share of a large `tools/list`).
 * `RawJson` values inside are written as they are (see `raw-json.ts`).
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const bytes = encodeWithRaw(body);
  res.status(status);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}
