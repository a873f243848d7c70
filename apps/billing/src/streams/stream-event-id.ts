/**
 * Event ids are `<streamId>:<position>`: unique across replicas (the position comes from the
 * shared store: a PostgreSQL sequence, a Redis stream entry id) and they say which stream to
 * replay. Stream ids are the layer's `<sessionId>/<kind>-<uuid>`, so the session an event belongs
 * to is read from its stream id, and `replayAfter` can refuse another session's id.
 */
export function eventId(streamId: string, position: string): string {
  return `${streamId}:${position}`;
}

export function parseEventId(id: string): { streamId: string; position: string } | undefined {
  const colon = id.lastIndexOf(':');
  if (colon <= 0 || colon === id.length - 1) return undefined;
  return { streamId: id.slice(0, colon), position: id.slice(colon + 1) };
}

/** The session of a stream: the layer's own reading of its stream ids. */
export { sessionOfStream } from '@nest-mcp/core';
