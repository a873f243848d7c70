import { LOG_LEVEL_META_KEY, type LoggingLevel } from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../protocol/protocol-version.js';
import type { ClientRequestOrigin, ClientRequests } from './client-requests.js';
import type { ResponseChannel } from './response-channel.js';
import type { McpSession } from '../invocation/mcp-session.js';
import type { McpCallStream } from '../invocation/call-stream.interface.js';

/** Severity order of `LoggingLevel` (RFC 5424, as MCP's logging utility uses it). */
const LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/**
 * What a handler can send to the client while its call runs, in stream mode: progress, log
 * messages, and (handshake era) server→client requests. Built per request by the controller.
 */
export class CallStream implements McpCallStream {
  private lastProgress = -Infinity;

  constructor(
    private readonly channel: ResponseChannel,
    private readonly era: ProtocolEra,
    private readonly meta: Record<string, unknown>,
    private readonly session: McpSession | undefined,
    private readonly clientRequests: ClientRequests,
    /** The call this stream answers: sealed into the ids of its server→client requests. */
    private readonly origin: ClientRequestOrigin,
  ) {}

  get signal(): AbortSignal {
    return this.channel.signal;
  }

  /** `notifications/progress` for the request's `_meta.progressToken`; nothing without one (MCP progress utility). */
  async progress(done: number, total?: number, message?: string): Promise<void> {
    const progressToken = this.meta.progressToken;
    if ((typeof progressToken !== 'string' && typeof progressToken !== 'number') || !Number.isFinite(done)) return;
    // "The progress value MUST increase with each notification": a report that does not is dropped.
    if (done <= this.lastProgress) return;
    this.lastProgress = done;
    await this.channel.notify({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken, progress: done, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) },
    });
  }

  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    const threshold = this.threshold();
    if (threshold === undefined || LEVELS.indexOf(level) < LEVELS.indexOf(threshold)) return;
    await this.channel.notify({ jsonrpc: '2.0', method: 'notifications/message', params: { level, data, ...(logger ? { logger } : {}) } });
  }

  /** A server→client request over this call's stream (handshake era, with a session). */
  ask(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.clientRequests.ask(this.channel, this.session!.id, this.origin, method, params);
  }

  get hasSession(): boolean {
    return !!this.session;
  }

  /** Whether a server→client request can go out now: a session, and an answer that can become SSE. */
  get canAsk(): boolean {
    return !!this.session && this.channel.canStream;
  }

  /** The least severe level the client wants; undefined: none. */
  private threshold(): LoggingLevel | undefined {
    if (this.era === 'stateless') {
      const requested = this.meta[LOG_LEVEL_META_KEY];
      return LEVELS.includes(requested as LoggingLevel) ? (requested as LoggingLevel) : undefined;
    }
    // Handshake era: everything until the client narrows it with logging/setLevel (as the official SDK server does).
    return this.session?.logLevel ?? 'debug';
  }
}

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return LEVELS.includes(value as LoggingLevel);
}
