import { HttpStatus, Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { RequestId } from '@modelcontextprotocol/server';
import { MCP_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../mcp-options.interface.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { McpStreamBackends } from './stream-backends.provider.js';

const CHANNEL = 'mcp:call-cancelled';

interface Cancellation {
  sessionId: string;
  requestId: RequestId;
  reason?: string;
}

/**
 * `notifications/cancelled` in the handshake era (MCP cancellation utility): the client's notice
 * may reach another replica than the one running the call, so it goes over the bus, on one channel
 * every replica listens to, and the replica that runs the call aborts it (its signal aborts and the
 * call's writes roll back, as when the client disconnects).
 */
@Injectable()
export class CallCancellations implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly running = new Map<string, (reason: Error) => void>();
  private unsubscribe?: () => Promise<void>;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly backends: McpStreamBackends,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.streams) return;
    this.unsubscribe = await this.backends.bus.subscribe(CHANNEL, (payload) => {
      const { sessionId, requestId, reason } = payload as Cancellation;
      const why = `The client cancelled the request${typeof reason === 'string' && reason ? ` (${reason.slice(0, 200)})` : ''}: the call was rolled back`;
      this.running.get(keyOf(sessionId, requestId))?.(new McpProtocolError(McpErrorCode.InternalError, why, HttpStatus.OK));
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.unsubscribe?.();
  }

  /** Makes a running call of a session cancellable; the returned function ends that. */
  track(sessionId: string, requestId: RequestId, cancel: (reason: Error) => void): () => void {
    const key = keyOf(sessionId, requestId);
    this.running.set(key, cancel);
    return () => {
      if (this.running.get(key) === cancel) this.running.delete(key);
    };
  }

  /** A client's `notifications/cancelled`: to whichever replica runs the call (unknown ids are ignored, as the spec allows). */
  async cancel(sessionId: string, params: Record<string, unknown>): Promise<void> {
    const { requestId, reason } = params;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    await this.backends.bus.publish(CHANNEL, {
      sessionId,
      requestId,
      ...(typeof reason === 'string' ? { reason } : {}),
    } satisfies Cancellation);
  }
}

function keyOf(sessionId: string, requestId: RequestId): string {
  return `${sessionId}\0${typeof requestId}:${requestId}`;
}
