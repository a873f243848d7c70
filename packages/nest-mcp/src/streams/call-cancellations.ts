import { HttpStatus, Injectable } from '@nestjs/common';
import type { RequestId } from '@modelcontextprotocol/server';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { BusChannelListener } from './bus-channel-listener.js';

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
export class CallCancellations extends BusChannelListener {
  protected readonly channel = CHANNEL;
  private readonly running = new Map<string, (reason: Error) => void>();

  protected heard(payload: unknown): void {
    const { sessionId, requestId, reason } = payload as Cancellation;
    const why = `The client cancelled the request${typeof reason === 'string' && reason ? ` (${reason.slice(0, 200)})` : ''}: the call was rolled back`;
    this.running.get(keyOf(sessionId, requestId))?.(new McpProtocolError(McpErrorCode.InternalError, why, HttpStatus.OK));
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
