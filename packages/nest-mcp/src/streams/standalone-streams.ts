import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { BusChannelListener } from './bus-channel-listener.js';
import { MCP_RESOURCE_UPDATED_CHANNEL, type McpSession } from '../contracts/stream-backends.js';
import { isStandaloneStream, newStreamId } from './stream-ids.js';
import { SseWriter } from './sse-writer.js';

/** One open `GET` stream of this process. */
interface OpenStream {
  sessionId: string;
  streamId: string;
  send(message: JSONRPCMessage): Promise<void>;
  close(): void;
}

/**
 * The standalone `GET` streams (Streamable HTTP, "Listening for Messages from the Server") this
 * process holds, and what reaches them: `notifications/resources/updated` for the URIs their
 * session subscribed to, whichever replica announced the change on `MCP_RESOURCE_UPDATED_CHANNEL`.
 * Every replica hears every announcement and serves only the streams it holds, so each
 * notification goes out once. A stream that carried nothing for `idleStreamMs` is closed.
 */
@Injectable()
export class StandaloneStreams extends BusChannelListener {
  protected readonly channel = MCP_RESOURCE_UPDATED_CHANNEL;
  private readonly logger = new Logger('McpStreams');
  private readonly open = new Set<OpenStream>();

  protected heard(payload: unknown): void {
    const uri = (payload as { uri?: unknown } | null)?.uri;
    if (typeof uri === 'string')
      this.resourceUpdated(uri).catch((error: Error) => this.logger.warn(`resource update of ${uri} not delivered: ${error.message}`));
  }

  override async onModuleDestroy(): Promise<void> {
    for (const stream of this.open) stream.close();
    await super.onModuleDestroy();
  }

  /**
   * Serves one `GET`: replays what the client missed after `Last-Event-ID` when that event is its
   * session's (another session's id is ignored), then stays open on the session's standalone
   * stream; a replayed request stream (a POST answer cut short) ends after its replay.
   */
  async serve(req: Request, res: Response, session: McpSession, protocolVersion: string, release: () => void): Promise<void> {
    const lastEventId = req.headers['last-event-id'];
    const replay =
      typeof lastEventId === 'string' && lastEventId ? await this.backends.events.replayAfter(lastEventId, session.id) : undefined;
    const sse = new SseWriter(res);
    sse.open(protocolVersion, { 'Mcp-Session-Id': session.id });
    for (const event of replay?.events ?? []) sse.send(event.message, event.id);
    if (replay && !isStandaloneStream(replay.streamId)) {
      sse.end();
      release();
      return;
    }
    const streamId = replay?.streamId ?? newStreamId(session.id, 'get');
    let idle: NodeJS.Timeout;
    const stream: OpenStream = {
      sessionId: session.id,
      streamId,
      send: async (message) => {
        sse.send(message, await this.backends.events.append(streamId, message));
        armIdle();
      },
      close: () => sse.end(),
    };
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => stream.close(), this.options.streams!.idleStreamMs);
      idle.unref();
    };
    armIdle();
    this.open.add(stream);
    res.once('close', () => {
      clearTimeout(idle);
      this.open.delete(stream);
      release();
    });
  }

  /** Ends this process's streams of a session (`DELETE`). */
  closeSession(sessionId: string): void {
    for (const stream of this.open) if (stream.sessionId === sessionId) stream.close();
  }

  private async resourceUpdated(uri: string): Promise<void> {
    if (this.open.size === 0) return;
    const subscribed = new Set(await this.backends.sessions.subscribersOf(uri));
    const message: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } };
    await Promise.all([...this.open].filter((s) => subscribed.has(s.sessionId)).map((s) => s.send(message)));
  }
}
