import type { LoggingLevel } from '@modelcontextprotocol/server';

/**
 * What a handler's call can send to the client while it runs, in stream mode (`McpRequestContext.stream`):
 * progress, log messages and (handshake era) server→client requests. Implemented by `CallStream`
 * (streams/call-stream.ts), built per request by the streaming endpoint.
 */
export interface McpCallStream {
  readonly signal: AbortSignal;
  /** `notifications/progress` for the request's `_meta.progressToken`; nothing without one. */
  progress(done: number, total?: number, message?: string): Promise<void>;
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** A server→client request over this call's stream (handshake era, with a session). */
  ask(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  readonly hasSession: boolean;
  /** Whether a server→client request can go out now: a session, and an answer that can become SSE. */
  readonly canAsk: boolean;
}
