import type { Request } from 'express';
import type { McpRequestContext } from './mcp-invocation.js';
import { isPlainObject, type InboundMessage } from '../protocol/json-rpc-message.js';
import type { NegotiatedProtocol } from '../protocol/protocol-negotiation.js';
import type { McpSession } from './mcp-session.js';

/**
 * The context of one request that expects an answer, for both endpoints (stateless and stream
 * mode). A handshake-era request says nothing about its client: with a session, what its
 * `initialize` said (capabilities, client info) stands in for the message's; without one (the
 * stateless default), the endpoint then recalls the caller's client info (`StatelessClientInfo`).
 */
export function requestContextOf(
  message: InboundMessage,
  protocol: NegotiatedProtocol,
  httpRequest: Request,
  session?: McpSession,
): McpRequestContext {
  const clientInfo = session?.clientInfo ?? protocol.clientInfo;
  return {
    era: protocol.era,
    protocolVersion: protocol.version,
    method: message.method,
    requestId: message.id,
    clientCapabilities: session?.clientCapabilities ?? protocol.clientCapabilities,
    ...(clientInfo ? { clientInfo } : {}),
    ...(session ? { session } : {}),
    meta: isPlainObject(message.params._meta) ? message.params._meta : {},
    httpRequest,
  };
}
