import type { ClientCapabilities, Implementation, RequestId } from '@modelcontextprotocol/server';
import type { Request } from 'express';
import type { ProtocolEra } from './protocol/protocol-version.js';

/** One MCP message being served: what guards, interceptors and handlers can learn about the caller. */
export interface McpRequestContext {
  era: ProtocolEra;
  protocolVersion: string;
  method: string;
  requestId?: RequestId;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  /** `params._meta` of the message (trace context, progress token, …). */
  meta: Record<string, unknown>;
  /** The HTTP request that carried the message (headers, authenticated user, …). */
  httpRequest: Request;
}

/** What kind of capability a handler was invoked as. */
export type McpTargetKind = 'tool' | 'resource' | 'prompt' | 'completion';

/**
 * The second argument a decorated method receives when called through MCP, and what
 * `ExecutionContext.getArgByIndex(1)` returns to guards and interceptors (see `McpExecutionContext`).
 */
export interface McpInvocation extends McpRequestContext {
  kind: McpTargetKind;
  /** Tool, prompt or resource name. */
  name: string;
  /** The validated input: a DTO instance, template variables, or completion request. */
  input: unknown;
  /** `resources/read` only: the URI read. */
  uri?: string;
}
