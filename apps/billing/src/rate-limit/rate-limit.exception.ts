import { HttpException, HttpStatus } from '@nestjs/common';
import { McpProtocolError } from '@nest-mcp/core';

/**
 * JSON-RPC code of a rate-limit refusal on the MCP endpoint. JSON-RPC 2.0 leaves -32000…-32099 to
 * the server; MCP 2026-07-28 takes -32020 and up for its transport faults and names no code for
 * rate limits. -32000, the conventional generic "server error", is what JSON-RPC clients already
 * treat as a refusal rather than as a bad request (-32600 would tell the model to change the
 * call); the HTTP 429, `Retry-After` and `data.limit` say which one it is.
 */
export const RATE_LIMIT_EXCEEDED_CODE: number = -32000;

/** Which limit refused a request, and what the caller should do. */
export interface RateLimitRefusal {
  message: string;
  retryAfterSeconds: number;
  data: {
    limit: 'token' | 'workspace';
    /** Slug of the workspace whose shared limit refused (workspace limit only). */
    workspace?: string;
    unitsPerMinute: number;
    /** Units this request would have cost. */
    cost: number;
    retryAfterSeconds: number;
  };
}

/** REST side: a JSON 429 (Nest's exception layer); the guard sets `Retry-After` on the response. */
export class RateLimitExceededException extends HttpException {
  constructor(readonly refusal: RateLimitRefusal) {
    super(
      { statusCode: HttpStatus.TOO_MANY_REQUESTS, error: 'Too Many Requests', message: refusal.message, ...refusal.data },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}

/**
 * MCP side: the endpoint's exception filter answers it as it answers every protocol fault
 * (docs/contract.md §1.5): HTTP 429, the request id echoed, `MCP-Protocol-Version`, `Cache-Control: no-store`, and
 * `Retry-After` from `headers`.
 */
export function rateLimitProtocolError(refusal: RateLimitRefusal): McpProtocolError {
  return new McpProtocolError(
    // The layer's code type lists the codes it emits itself; an application's own code is a plain number.
    RATE_LIMIT_EXCEEDED_CODE,
    refusal.message,
    HttpStatus.TOO_MANY_REQUESTS,
    refusal.data,
    { 'Retry-After': String(refusal.retryAfterSeconds) },
  );
}
