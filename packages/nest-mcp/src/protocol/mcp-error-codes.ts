import { ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * JSON-RPC error codes this server emits. The standard ones come from the official SDK;
 * `HeaderMismatch` (-32020) is the 2026-07-28 Streamable HTTP code for headers that disagree
 * with the body, which the SDK does not name.
 */
export const McpErrorCode = {
  ParseError: ProtocolErrorCode.ParseError,
  InvalidRequest: ProtocolErrorCode.InvalidRequest,
  MethodNotFound: ProtocolErrorCode.MethodNotFound,
  InvalidParams: ProtocolErrorCode.InvalidParams,
  InternalError: ProtocolErrorCode.InternalError,
  HeaderMismatch: -32020,
  /** Stream mode: an unknown, expired or foreign `Mcp-Session-Id` (with HTTP 404), as the official SDK answers it. */
  SessionNotFound: -32001,
  MissingRequiredClientCapability: ProtocolErrorCode.MissingRequiredClientCapability,
  UnsupportedProtocolVersion: ProtocolErrorCode.UnsupportedProtocolVersion,
} as const;

export type McpErrorCode = (typeof McpErrorCode)[keyof typeof McpErrorCode];
