import type { ClientCapabilities, Implementation, JSONRPCMessage, LoggingLevel } from '@modelcontextprotocol/server';

/**
 * The three shared backends of stream mode (`McpModule.forRoot({ streams: true })`). Stream mode
 * keeps nothing that matters in one process: any replica can serve any request of a session, take
 * a client's answer to a server→client request, or replay a stream a client lost. The layer ships
 * in-process defaults (one replica); an application provides shared ones (Postgres, Redis) under
 * the tokens below.
 */

/** A handshake-era session (`Mcp-Session-Id`), created by `initialize`. */
export interface McpSession {
  id: string;
  /** Who opened it (see the `callerKey` option): another caller using the id gets `404`. */
  callerKey: string;
  protocolVersion: string;
  clientInfo?: Implementation;
  clientCapabilities: ClientCapabilities;
  /** Set by `logging/setLevel`; absent = the server's default. */
  logLevel?: LoggingLevel;
  /** Resource URIs of `resources/subscribe`. */
  subscriptions: string[];
  createdAt: Date;
  /** Sliding expiry: pushed forward by every request of the session. */
  expiresAt: Date;
}

export interface McpSessionStore {
  create(session: McpSession): Promise<void>;
  /** Undefined when unknown or expired. */
  get(id: string): Promise<McpSession | undefined>;
  /** Atomic per field; `touch` pushes `expiresAt`. Unknown id: no-op. */
  update(id: string, patch: Partial<Pick<McpSession, 'logLevel' | 'subscriptions' | 'expiresAt'>>): Promise<void>;
  delete(id: string): Promise<void>;
  /** Sessions subscribed to `uri` (for `notifications/resources/updated`). */
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

/**
 * Bus channel on which any replica announces that a resource changed (payload
 * `{ uri: string }`): the layer turns it into `notifications/resources/updated` for the sessions
 * subscribed to that URI. The application publishes it when a row behind a resource is written,
 * whatever the channel of the write (REST, MCP, admin pages).
 */
export const MCP_RESOURCE_UPDATED_CHANNEL = 'mcp:resource-updated';
export interface McpResourceUpdatedEvent {
  uri: string;
}
