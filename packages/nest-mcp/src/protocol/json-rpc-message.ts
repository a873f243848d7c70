import type { RequestId } from '@modelcontextprotocol/server';
import { McpProtocolError } from './mcp-protocol.error.js';

/** A request (with `id`) or a notification (without), as this endpoint accepts them. */
export interface InboundMessage {
  id?: RequestId;
  method: string;
  params: Record<string, unknown>;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The request id, when the body has a usable one: echoed in every error answer. */
export function requestIdOf(body: unknown): RequestId | null {
  if (!isPlainObject(body)) return null;
  const id = body.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** Checks the JSON-RPC 2.0 envelope (docs/contract.md §1.2). Anything else is `-32600` with HTTP 400. */
export function parseInboundMessage(body: unknown): InboundMessage {
  if (Array.isArray(body)) {
    throw McpProtocolError.invalidRequest(
      'Invalid request: JSON-RPC batches are not supported (removed in 2025-06-18); send one message per POST',
    );
  }
  if (!isPlainObject(body)) throw McpProtocolError.invalidRequest('Invalid request: the body must be a JSON-RPC 2.0 object');
  if (body.jsonrpc !== '2.0') throw McpProtocolError.invalidRequest('Invalid request: "jsonrpc" must be "2.0"');
  if (typeof body.method !== 'string' || body.method === '') {
    const isResponse = 'result' in body || 'error' in body;
    throw McpProtocolError.invalidRequest(
      isResponse
        ? 'Invalid request: this endpoint accepts requests and notifications, not responses'
        : 'Invalid request: "method" must be a non-empty string',
    );
  }
  if ('id' in body && requestIdOf(body) === null) {
    throw McpProtocolError.invalidRequest('Invalid request: "id" must be a string or a number (omit it for a notification)');
  }
  if (body.params !== undefined && !isPlainObject(body.params)) {
    throw McpProtocolError.invalidRequest('Invalid request: "params" must be an object');
  }
  return {
    ...('id' in body ? { id: body.id as RequestId } : {}),
    method: body.method,
    params: body.params ?? {},
  };
}
