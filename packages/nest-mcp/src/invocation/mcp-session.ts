import type { ClientCapabilities, Implementation, LoggingLevel } from '@modelcontextprotocol/server';

/** A handshake-era session (`Mcp-Session-Id`), created by `initialize`. */
export interface McpSession {
  id: string;
  /** Who opened it (see the `callerKey` option): another caller using the id gets `404`. */
  callerKey: string;
  protocolVersion: string;
  clientInfo?: Implementation;
  /**
   * What the server uses of the client's declared capabilities (which of elicitation, sampling,
   * roots it declared), never the client's object verbatim: a session's size does not depend on
   * what the client sends.
   */
  clientCapabilities: ClientCapabilities;
  /** Set by `logging/setLevel`; absent = the server's default. */
  logLevel?: LoggingLevel;
  /**
   * The newest `GET` stream of the session (its connection id): the one stream that carries the
   * session's messages, whichever replica holds it (a message goes on one stream only).
   */
  standaloneStream?: string;
  /** Id of the last message of the session's standalone stream delivered to the client: where its backlog starts. */
  delivered?: string;
  createdAt: Date;
  /** Sliding expiry: pushed forward by every request of the session. */
  expiresAt: Date;
}
