import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { McpSession } from '../invocation/mcp-session.js';

/**
 * The three shared backends of stream mode (`McpModule.forRoot({ streams: true })`). Stream mode
 * keeps nothing that matters in one process: any replica can serve any request of a session, take
 * a client's answer to a server→client request, or replay a stream a client lost. The layer ships
 * in-process defaults (one replica); an application provides shared ones (Postgres, Redis) under
 * the tokens below.
 */

/** The fields of a session that change after `initialize`. */
export type McpSessionPatch = Partial<Pick<McpSession, 'logLevel' | 'expiresAt' | 'standaloneStream' | 'delivered'>>;

export interface McpSessionStore {
  /**
   * Stores a new session, unless its caller already has `maxPerCaller` live sessions: then
   * nothing is stored and the answer is false.
   */
  create(session: McpSession, maxPerCaller: number): Promise<boolean>;
  /** Undefined when unknown or expired. Read on every request of a session: its size is bounded (no subscriptions). */
  get(id: string): Promise<McpSession | undefined>;
  /** Atomic per field. Unknown id: no-op. */
  update(id: string, patch: McpSessionPatch): Promise<void>;
  /** Ends the session and its subscriptions. */
  delete(id: string): Promise<void>;
  /**
   * Subscribes the session to `uri` (`resources/subscribe`); true when it is (or already was)
   * subscribed, false when it already has `maxPerSession` other subscriptions. Unknown id: false.
   */
  subscribe(id: string, uri: string, maxPerSession: number): Promise<boolean>;
  unsubscribe(id: string, uri: string): Promise<void>;
  /** Live sessions subscribed to `uri` (for `notifications/resources/updated`). */
  subscribersOf(uri: string): Promise<string[]>;
}

/**
 * Resumability: every SSE event gets an id from here, and a client that reconnects with
 * `Last-Event-ID` gets what it missed. Bounded (a retention by age and/or count).
 */
export interface McpEventStore {
  /** Stores the event and returns its id, unique across replicas, which encodes its stream. */
  append(streamId: string, message: JSONRPCMessage): Promise<string>;
  /**
   * The events of the same stream after `lastEventId`, in order, when that stream belongs to
   * `sessionId`; undefined when the id is unknown, expired or belongs to another session.
   */
  replayAfter(
    lastEventId: string,
    sessionId: string,
  ): Promise<{ streamId: string; events: { id: string; message: JSONRPCMessage }[] } | undefined>;
  /** Every retained event of `streamId`, in order (a session's backlog, read when it never had a delivered event). */
  eventsOf(streamId: string): Promise<{ id: string; message: JSONRPCMessage }[]>;
}

/**
 * Fan-out across replicas: server→client answers reaching the replica where the handler waits,
 * messages for a session's standalone GET stream, resource-updated events. At-most-once, no
 * persistence (the event store is for replay).
 */
export interface McpMessageBus {
  publish(channel: string, payload: unknown): Promise<void>;
  /** Resolves once the subscription is active; the returned function ends it. */
  subscribe(channel: string, onMessage: (payload: unknown) => void): Promise<() => Promise<void>>;
}

export const MCP_SESSION_STORE = Symbol('MCP_SESSION_STORE');
export const MCP_EVENT_STORE = Symbol('MCP_EVENT_STORE');
export const MCP_MESSAGE_BUS = Symbol('MCP_MESSAGE_BUS');
