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
  /**
   * Set in-process only (never from the wire) when a person already approved this exact call,
   * e.g. by choosing Continue on an approval page: confirmation is not asked again.
   */
  approved?: { approvalId: string };
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
  /** The arguments as the client sent them (tools and prompts), before validation. */
  arguments?: Record<string, unknown>;
  /** SHA-256 of the canonical JSON of `arguments`: what binds state, approvals and idempotency keys. */
  argumentsHash?: string;
  /** Stable identity of the caller (see the `callerKey` option). */
  callerKey?: string;
  /**
   * Multi round-trip (2026 era): the client's answers to the `inputRequests` of a previous
   * `input_required` result, by key. Untrusted client input.
   */
  inputResponses?: Record<string, unknown>;
  /** Multi round-trip: the payload of the `requestState` the client echoed, verified and accepted once. */
  state?: unknown;
}
