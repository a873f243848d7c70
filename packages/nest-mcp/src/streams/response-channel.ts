import type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, RequestId } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { sendJson } from '../protocol/json-rpc-response.js';
import { SseWriter } from './sse-writer.js';
import type { McpEventStore } from '../contracts/stream-backends.js';
import { requestStreamId } from './stream-ids.js';

/** What a channel needs from stream mode, given by the controller. */
export interface ResponseChannelDeps {
  events: McpEventStore;
  /** Takes a stream slot (limits); undefined when none is free. */
  acquireStream: () => (() => void) | undefined;
}

/**
 * The answer to one POST in stream mode. It stays plain JSON until the handler emits something
 * (a notification, a server→client request); then, when the client's `Accept` lists
 * `text/event-stream`, it becomes an SSE stream: what was emitted, then the response (Streamable
 * HTTP: "the server MAY send JSON-RPC requests and notifications before sending the JSON-RPC
 * response"). A client that accepts only JSON gets the response alone. Events of a session's
 * stream carry ids from the event store, so a client can resume it with `Last-Event-ID`.
 */
export class ResponseChannel {
  readonly signal: AbortSignal;
  readonly acceptsSse: boolean;
  private readonly sse: SseWriter;
  private readonly abort = new AbortController();
  private streamId?: string;
  private releaseSlot?: () => void;
  private streamRefused = false;
  private finished = false;
  /** Writes happen in order even though each waits for its event id. */
  private tail: Promise<void> = Promise.resolve();

  constructor(
    req: Request,
    private readonly res: Response,
    private readonly protocolVersion: () => string,
    private readonly sessionId: string | undefined,
    private readonly requestId: RequestId,
    private readonly deps: ResponseChannelDeps,
  ) {
    this.signal = this.abort.signal;
    this.acceptsSse = acceptsEventStream(req.headers.accept);
    this.sse = new SseWriter(res);
    // The client went away before the answer was complete: the handler's signal aborts.
    res.once('close', () => {
      this.releaseSlot?.();
      if (!this.finished) this.abort.abort(new Error('The client disconnected before the answer was complete'));
    });
  }

  /** Whether messages can reach the client before the response (SSE accepted and a stream slot free). */
  get canStream(): boolean {
    return this.acceptsSse && !this.streamRefused && !this.finished;
  }

  get streaming(): boolean {
    return this.sse.isOpen;
  }

  /** Aborts the call (the client cancelled it): its signal aborts, the dispatcher fails it. */
  cancel(reason: Error): void {
    if (!this.finished) this.abort.abort(reason);
  }

  /** Sends a notification on the stream; dropped when the client takes JSON only. */
  notify(notification: JSONRPCNotification): Promise<void> {
    return this.emit(notification);
  }

  /** Sends a server→client request on the stream; false when it cannot (JSON-only client, limits). */
  async request(request: JSONRPCRequest): Promise<boolean> {
    if (!this.openStream()) return false;
    await this.emit(request);
    return true;
  }

  /** The final answer: the last event of the stream, or a plain JSON body. */
  async respond(message: JSONRPCMessage): Promise<void> {
    await this.tail;
    this.finished = true;
    if (this.sse.isOpen) {
      await this.write(message);
      this.sse.end();
    } else if (!this.res.headersSent && !this.res.destroyed) {
      sendJson(this.res, 200, message);
    }
  }

  private emit(message: JSONRPCMessage): Promise<void> {
    if (!this.openStream()) return Promise.resolve();
    this.tail = this.tail.then(() => this.write(message));
    return this.tail;
  }

  private async write(message: JSONRPCMessage): Promise<void> {
    const eventId = this.streamId ? await this.deps.events.append(this.streamId, message) : undefined;
    this.sse.send(message, eventId);
  }

  private openStream(): boolean {
    if (this.sse.isOpen) return true;
    if (!this.canStream || this.res.headersSent) return false;
    this.releaseSlot = this.deps.acquireStream();
    if (!this.releaseSlot) {
      this.streamRefused = true;
      return false;
    }
    if (this.sessionId) this.streamId = requestStreamId(this.sessionId, this.requestId);
    this.sse.open(this.protocolVersion(), this.sessionId ? { 'Mcp-Session-Id': this.sessionId } : {});
    return true;
  }
}

/** Whether an `Accept` header lists `text/event-stream` explicitly (a bare wildcard, as curl sends, keeps JSON). */
export function acceptsEventStream(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const type = part.split(';')[0].trim().toLowerCase();
    return type === 'text/event-stream';
  });
}
