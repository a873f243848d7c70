import type { RequestId } from '@modelcontextprotocol/server';
import type { Request } from 'express';
import { parseInboundMessage, requestIdOf, type InboundMessage } from '../protocol/json-rpc-message.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { isJsonRpcResponse } from '../streams/client-requests.js';
import type { ToolEntry } from '../invocation/capability-entries.js';
import type { McpRegistry } from '../registry/mcp.registry.js';

/**
 * What a POST to the MCP endpoint carries, interpreted once by the body reader and kept on the
 * request: the controller, the exception filter, tracing, access logs and the host's guards (rate
 * limits, workspace) all read this instead of looking into the raw body again.
 */
export interface McpRequestMessage {
  /** The JSON-RPC id when the body has a usable one: every error answer echoes it. */
  id: RequestId | null;
  /** The request (with `id`) or notification (without) to serve. */
  message?: InboundMessage;
  /**
   * `tools/call`: the tool the message names, looked up here, once per call: the host's request
   * guards (a rate limit's price), the dispatcher and every station after it read this entry.
   * Undefined for any other method and for a name no tool has.
   */
  tool?: ToolEntry;
  /** The body is a JSON-RPC response: a client's answer to a server→client request (stream mode). */
  answer?: Record<string, unknown> & { id: RequestId };
  /** Why the body is neither (`-32600`), thrown when the endpoint serves it. */
  fault?: McpProtocolError;
}

const MESSAGE = Symbol('mcp:message');

type Carrier = Request & { [MESSAGE]?: McpRequestMessage };

/** Called by the body reader once the JSON is parsed; `registry` resolves the tool a `tools/call` names. */
export function attachMcpMessage(req: Request, body: unknown, registry?: Pick<McpRegistry, 'tool'>): void {
  const read = interpret(body);
  const name = read.message?.method === 'tools/call' ? read.message.params.name : undefined;
  if (typeof name === 'string') {
    const tool = registry?.tool(name);
    if (tool) read.tool = tool;
  }
  (req as Carrier)[MESSAGE] = read;
}

/** The message of a POST the MCP body reader read; undefined for any other request (REST, GET, …). */
export function mcpMessageOf(req: Request): McpRequestMessage | undefined {
  return (req as Carrier)[MESSAGE];
}

/** The request or notification to serve: throws the `-32600` fault of a body that is neither. */
export function servedMessage(read: McpRequestMessage): InboundMessage {
  if (read.message) return read.message;
  throw read.fault ?? McpProtocolError.invalidRequest('Invalid request: this endpoint accepts requests and notifications, not responses');
}

/** The tool, prompt or resource a message names (`params.name` / `params.uri`), for logs, spans and prices. */
export function mcpTargetOf(message: InboundMessage | undefined): string | undefined {
  if (!message) return undefined;
  const target =
    message.method === 'resources/read'
      ? message.params.uri
      : message.method === 'tools/call' || message.method === 'prompts/get'
        ? message.params.name
        : undefined;
  return typeof target === 'string' ? target : undefined;
}

function interpret(body: unknown): McpRequestMessage {
  const id = requestIdOf(body);
  if (isJsonRpcResponse(body)) return { id, answer: body };
  try {
    return { id, message: parseInboundMessage(body) };
  } catch (fault) {
    if (fault instanceof McpProtocolError) return { id, fault };
    throw fault;
  }
}
