import { randomUUID } from 'node:crypto';
import type { RequestId } from '@modelcontextprotocol/server';

/**
 * Stream ids say which session a stream belongs to: `<sessionId>/<kind>…`. `McpEventStore.append`
 * receives only the stream id, yet `replayAfter` must refuse another session's event: every event
 * store derives the session from the stream id with `sessionOfStream`. Session ids never contain `/`.
 *
 * - `<sessionId>/get`: the session's one standalone stream (what its `GET` streams carry, and its
 *   backlog while none is open);
 * - `<sessionId>/post-<uuid>.<request id>`: one request's answer; the JSON-RPC id of the request
 *   (base64url of its JSON, when short enough) lets any replica answer a resumed stream whose call
 *   was cut off;
 * - `<sessionId>/asked-<nonce>`: what became of one server→client request (`ClientRequestRecords`),
 *   the layer's own: never sent to a client, so never replayed.
 */
export function standaloneStreamId(sessionId: string): string {
  return `${sessionId}/get`;
}

/** Request ids longer than this are not carried in the stream id (a cut-off call then ends its stream without an answer). */
const MAX_ENCODED_REQUEST_ID = 200;

export function requestStreamId(sessionId: string, requestId: RequestId): string {
  const encoded = Buffer.from(JSON.stringify(requestId)).toString('base64url');
  return `${sessionId}/post-${randomUUID()}${encoded.length <= MAX_ENCODED_REQUEST_ID ? `.${encoded}` : ''}`;
}

export function clientRequestStreamId(sessionId: string, nonce: string): string {
  return `${sessionId}/asked-${nonce}`;
}

export function sessionOfStream(streamId: string): string {
  const slash = streamId.indexOf('/');
  return slash < 0 ? '' : streamId.slice(0, slash);
}

/**
 * An event id of a shared event store: `<streamId>:<position>`, unique across replicas (the
 * position comes from the store: a PostgreSQL sequence, a Redis stream entry id), and naming the
 * stream to replay; `parseEventId` reads it back (undefined for anything else).
 */
export function eventId(streamId: string, position: string): string {
  return `${streamId}:${position}`;
}

export function parseEventId(id: string): { streamId: string; position: string } | undefined {
  const colon = id.lastIndexOf(':');
  if (colon <= 0 || colon === id.length - 1) return undefined;
  return { streamId: id.slice(0, colon), position: id.slice(colon + 1) };
}

export function isStandaloneStream(streamId: string): boolean {
  return streamId.slice(streamId.indexOf('/') + 1) === 'get';
}

/** A request's answer stream (`POST`), as opposed to the standalone stream or the layer's own records. */
export function isRequestStream(streamId: string): boolean {
  return streamId.slice(streamId.indexOf('/') + 1).startsWith('post-');
}

/** The JSON-RPC id of the request whose answer a request stream carries, when its id says so. */
export function requestIdOfStream(streamId: string): RequestId | undefined {
  const kind = streamId.slice(streamId.indexOf('/') + 1);
  const dot = kind.indexOf('.');
  if (!kind.startsWith('post-') || dot < 0) return undefined;
  try {
    const id = JSON.parse(Buffer.from(kind.slice(dot + 1), 'base64url').toString()) as unknown;
    return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
  } catch {
    return undefined;
  }
}
