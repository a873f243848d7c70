import { randomUUID } from 'node:crypto';

/**
 * Stream ids say which session a stream belongs to: `<sessionId>/<kind>-<uuid>` (`get` for the
 * standalone stream, `post` for a request's answer). `McpEventStore.append` receives only the
 * stream id, yet `replayAfter` must refuse another session's event: every event store derives the
 * session from the stream id with `sessionOfStream`. Session ids never contain `/`.
 */
export function newStreamId(sessionId: string, kind: 'get' | 'post'): string {
  return `${sessionId}/${kind}-${randomUUID()}`;
}

export function sessionOfStream(streamId: string): string {
  const slash = streamId.indexOf('/');
  return slash < 0 ? '' : streamId.slice(0, slash);
}

export function isStandaloneStream(streamId: string): boolean {
  return streamId.slice(streamId.indexOf('/') + 1).startsWith('get-');
}
