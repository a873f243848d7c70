import { HttpStatus } from '@nestjs/common';
import { McpErrorCode } from './mcp-error-codes.js';
import type { ProtocolEra } from './protocol-version.js';

/**
 * A protocol fault: becomes a JSON-RPC error object with the given HTTP status.
 * Anything the caller can fix by changing arguments is a tool result with `isError`, not this.
 */
export class McpProtocolError extends Error {
  constructor(
    readonly code: McpErrorCode,
    message: string,
    readonly httpStatus: number = HttpStatus.BAD_REQUEST,
    readonly data?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'McpProtocolError';
  }

  static invalidParams(message: string, data?: unknown, httpStatus = HttpStatus.OK): McpProtocolError {
    return new McpProtocolError(McpErrorCode.InvalidParams, message, httpStatus, data);
  }

  static invalidRequest(message: string, httpStatus = HttpStatus.BAD_REQUEST): McpProtocolError {
    return new McpProtocolError(McpErrorCode.InvalidRequest, message, httpStatus);
  }

  /** An unknown method, or one of the other era: HTTP 404 in the 2026 era, inside a 200 in the handshake era (docs/contract.md §2.5). */
  static methodNotFound(method: string, era: ProtocolEra): McpProtocolError {
    return new McpProtocolError(
      McpErrorCode.MethodNotFound,
      `Method not found: ${method}`,
      era === 'stateless' ? HttpStatus.NOT_FOUND : HttpStatus.OK,
    );
  }

  static headerMismatch(detail: string): McpProtocolError {
    return new McpProtocolError(McpErrorCode.HeaderMismatch, `Header mismatch: ${detail}`);
  }
}
