import { randomUUID } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MCP_ACCESS_POLICY, type McpAccessPolicy } from '../contracts/access-policy.js';
import type { McpSession } from '../invocation/mcp-session.js';
import { ResourcesHandler } from '../handlers/resources.handler.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { requestContextOf } from '../invocation/request-context.builder.js';
import { BusChannelListener } from './bus-channel-listener.js';
import { RequestStreamReplay } from './request-stream-replay.js';
import { SESSION_MESSAGE_CHANNEL, type SessionMessage } from './session-messages.js';
import { SseWriter } from './sse-writer.js';
import { McpStreamBackends } from './stream-backends.provider.js';
import { isRequestStream, isStandaloneStream, standaloneStreamId } from './stream-ids.js';

type StoredEvent = { id: string; message: JSONRPCMessage };

/** Event ids a stream remembers having sent, so a backlog replay and a live delivery never send one twice. */
const REMEMBERED_EVENTS = 1000;

/** One open `GET` stream of this process. */
interface OpenStream {
  /** This connection's id: the session's `standaloneStream` while it is the newest. */
  connectionId: string;
  session: McpSession;
  callerKey: string;
  request: Request;
  /** Runs code in the async context of the `GET` request (the application's request state). */
  inRequest: <R>(fn: () => R) => R;
  sse: SseWriter;
  sent: Set<string>;
  /** Deliveries happen one after the other, in order. */
  queue: Promise<void>;
  armIdle(): void;
  close(): void;
}

/**
 * The standalone `GET` streams (Streamable HTTP, "Listening for Messages from the Server") this
 * process holds. A session has one standalone stream in the event store (`<sessionId>/get`):
 * what is written to it while no `GET` is open waits there (a bounded backlog) and goes out on the
 * next `GET`. A message goes on one stream only: the session's newest `GET` stream, whichever
 * replica holds it (the session's `standaloneStream`); older ones stay open but carry nothing.
 * Before each message its caller is checked again: credentials (`McpAccessPolicy.revalidate`) and,
 * for a resource update, the read check of `resources/read`, so nobody hears of a change to
 * something they may no longer read.
 */
@Injectable()
export class StandaloneStreams extends BusChannelListener implements OnApplicationBootstrap {
  protected readonly channel = SESSION_MESSAGE_CHANNEL;
  private readonly logger = new Logger('McpStreams');
  /** By session id. */
  private readonly open = new Map<string, Set<OpenStream>>();
  private revalidation?: NodeJS.Timeout;

  constructor(
    @Inject(MCP_OPTIONS) options: ResolvedMcpOptions,
    backends: McpStreamBackends,
    private readonly resources: ResourcesHandler,
    @Inject(MCP_ACCESS_POLICY) private readonly policy: McpAccessPolicy,
    private readonly requestStreams: RequestStreamReplay,
  ) {
    super(options, backends);
  }

  protected heard(payload: unknown): void {
    const { sessionId, eventId, message } = (payload ?? {}) as Partial<SessionMessage>;
    if (typeof sessionId !== 'string' || typeof eventId !== 'string' || !message || !this.open.has(sessionId)) return;
    this.deliverLive(sessionId, { id: eventId, message }).catch((error: Error) =>
      this.logger.warn(`message for session ${sessionId} not delivered: ${error.message}`),
    );
  }

  override async onApplicationBootstrap(): Promise<void> {
    await super.onApplicationBootstrap();
    if (!this.options.streams || !this.policy.revalidate) return;
    this.revalidation = setInterval(() => void this.revalidateAll(), this.options.streams.revalidateMs);
    this.revalidation.unref();
  }

  override async onModuleDestroy(): Promise<void> {
    clearInterval(this.revalidation);
    for (const streams of this.open.values()) for (const stream of streams) stream.close();
    await super.onModuleDestroy();
  }

  /**
   * Serves one `GET`. With a `Last-Event-ID` of one of the session's request streams (a `POST`
   * answer cut short), replays that stream and ends. Otherwise opens the session's standalone
   * stream, becomes the session's current one, and sends the backlog: what followed
   * `Last-Event-ID` when it names this session's standalone stream, else what followed the last
   * message delivered to the session.
   */
  async serve(req: Request, res: Response, session: McpSession, callerKey: string, release: () => void): Promise<void> {
    const lastEventId = req.headers['last-event-id'];
    const found =
      typeof lastEventId === 'string' && lastEventId ? await this.backends.events.replayAfter(lastEventId, session.id) : undefined;
    // Only streams whose events were sent to the client resume; the layer's records of its own are not for it.
    const replay = found && (isStandaloneStream(found.streamId) || isRequestStream(found.streamId)) ? found : undefined;
    const sse = new SseWriter(res);
    if (replay && !isStandaloneStream(replay.streamId)) {
      sse.open(session.protocolVersion, { 'Mcp-Session-Id': session.id });
      this.requestStreams.replay(sse, replay);
      sse.end();
      release();
      return;
    }
    const stream = this.track(req, res, session, callerKey, sse, release);
    session.standaloneStream = stream.connectionId;
    await this.backends.sessions.update(session.id, { standaloneStream: stream.connectionId });
    sse.open(session.protocolVersion, { 'Mcp-Session-Id': session.id });
    const backlog = replay?.events ?? (await this.backlogOf(session));
    for (const event of backlog) this.enqueue(stream, event);
  }

  /** Ends this process's streams of a session (`DELETE`). */
  closeSession(sessionId: string): void {
    for (const stream of this.open.get(sessionId) ?? []) stream.close();
  }

  private track(req: Request, res: Response, session: McpSession, callerKey: string, sse: SseWriter, release: () => void): OpenStream {
    let idle: NodeJS.Timeout | undefined;
    const stream: OpenStream = {
      connectionId: randomUUID(),
      session,
      callerKey,
      request: req,
      inRequest: AsyncLocalStorage.snapshot(),
      sse,
      sent: new Set(),
      queue: Promise.resolve(),
      armIdle: () => {
        clearTimeout(idle);
        idle = setTimeout(() => stream.close(), this.options.streams!.idleStreamMs);
        idle.unref();
      },
      close: () => sse.end(),
    };
    stream.armIdle();
    const mine = this.open.get(session.id) ?? new Set();
    mine.add(stream);
    this.open.set(session.id, mine);
    res.once('close', () => {
      clearTimeout(idle);
      mine.delete(stream);
      if (!mine.size && this.open.get(session.id) === mine) this.open.delete(session.id);
      release();
    });
    return stream;
  }

  private async backlogOf(session: McpSession): Promise<StoredEvent[]> {
    const afterDelivered = session.delivered ? await this.backends.events.replayAfter(session.delivered, session.id) : undefined;
    // Nothing delivered yet, or the last delivered event aged out of the store: everything retained is newer.
    return afterDelivered?.events ?? (await this.backends.events.eventsOf(standaloneStreamId(session.id)));
  }

  /** A message written to the session's standalone stream: sent if this process holds the session's current stream. */
  private async deliverLive(sessionId: string, event: StoredEvent): Promise<void> {
    const session = await this.backends.sessions.get(sessionId);
    const streams = this.open.get(sessionId);
    if (!session) {
      for (const stream of streams ?? []) stream.close();
      return;
    }
    const current = [...(streams ?? [])].find((stream) => stream.connectionId === session.standaloneStream);
    if (current) this.enqueue(current, event);
  }

  private enqueue(stream: OpenStream, event: StoredEvent): void {
    stream.queue = stream.queue
      .then(() => this.deliver(stream, event))
      .catch((error: Error) => this.logger.warn(`message ${event.id} not delivered: ${error.message}`));
  }

  private async deliver(stream: OpenStream, event: StoredEvent): Promise<void> {
    if (stream.sent.has(event.id) || !stream.sse.isOpen) return;
    if (!(await this.callerStillValid(stream))) {
      await this.endCaller(stream.callerKey);
      return;
    }
    // A message its caller may not read is skipped, not retried: the cursor moves past it.
    if (await this.mayReceive(stream, event.message)) {
      stream.sse.send(event.message, event.id);
      stream.armIdle();
    }
    remember(stream.sent, event.id);
    stream.session.delivered = event.id;
    await this.backends.sessions.update(stream.session.id, { delivered: event.id });
  }

  private async callerStillValid(stream: OpenStream): Promise<boolean> {
    if (!this.policy.revalidate) return true;
    try {
      return await stream.inRequest(() => this.policy.revalidate!(stream.request));
    } catch {
      return false;
    }
  }

  /** A resource update reaches only a caller for whom `resources/read` of that URI succeeds now. */
  private async mayReceive(stream: OpenStream, message: JSONRPCMessage): Promise<boolean> {
    if (!('method' in message) || message.method !== 'notifications/resources/updated') return true;
    const uri = (message.params as { uri?: unknown } | undefined)?.uri;
    if (typeof uri !== 'string') return false;
    const check = { id: `subscription-check:${randomUUID()}`, method: 'resources/read', params: { uri } };
    const protocol = { era: 'handshake' as const, version: stream.session.protocolVersion, clientCapabilities: {} };
    const context = requestContextOf(check, protocol, stream.request, stream.session);
    try {
      await stream.inRequest(() => this.resources.read(check.params, context));
      return true;
    } catch {
      return false;
    }
  }

  /** Every caller with an open stream here, checked once: a revoked token's streams close and its sessions end. */
  private async revalidateAll(): Promise<void> {
    const byCaller = new Map<string, OpenStream>();
    for (const streams of this.open.values())
      for (const stream of streams) if (!byCaller.has(stream.callerKey)) byCaller.set(stream.callerKey, stream);
    await Promise.all(
      [...byCaller.values()].map(async (stream) => {
        if (!(await this.callerStillValid(stream))) await this.endCaller(stream.callerKey);
      }),
    );
  }

  private async endCaller(callerKey: string): Promise<void> {
    const ended: Promise<void>[] = [];
    for (const [sessionId, streams] of this.open) {
      const theirs = [...streams].filter((stream) => stream.callerKey === callerKey);
      if (!theirs.length) continue;
      for (const stream of theirs) stream.close();
      ended.push(this.backends.sessions.delete(sessionId));
    }
    await Promise.all(ended).catch((error: Error) => this.logger.warn(`sessions of a revoked caller not ended: ${error.message}`));
  }
}

function remember(sent: Set<string>, id: string): void {
  sent.add(id);
  if (sent.size > REMEMBERED_EVENTS) sent.delete(sent.values().next().value!);
}
