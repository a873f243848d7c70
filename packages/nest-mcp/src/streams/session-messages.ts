import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * Bus channel on which the replica that wrote a message into a session's standalone stream tells
 * the others; the replica holding that session's current `GET` stream sends it.
 */
export const SESSION_MESSAGE_CHANNEL = 'mcp:session-message';

export interface SessionMessage {
  sessionId: string;
  /** Its id in the session's standalone stream (the event store's). */
  eventId: string;
  message: JSONRPCMessage;
}
