import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { eventId, type McpEventStore, parseEventId, sessionOfStream } from '@nest-mcp/core/extensions';
import type { RedisConnection } from '../connection/redis-connection.js';
import type { StreamEventLimits } from './stream-limits.js';

/**
 * Replayable events in Redis Streams, one per SSE stream: the entry id (`<ms>-<n>`, assigned by
 * Redis, so unique across replicas) is the event id's position. Bounded twice on every append:
 * at most `maxPerStream` entries (`MAXLEN`) and none older than the retention (`MINID`, on Redis's
 * clock); an idle stream's key expires after the retention.
 *
 * KEYS[1]: stream. ARGV: message JSON, max entries, retention ms.
 */
const APPEND = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '=', ARGV[2], '*', 'm', ARGV[1])
redis.call('XTRIM', KEYS[1], 'MINID', '=', tostring(now - tonumber(ARGV[3])))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return id
`;

/** An XRANGE entry: its id and its fields (`m`, the message's JSON). */
type Entry = [id: string, fields: string[]];

/** Canonical entry ids only: Redis would read `5-00` as `5-0`, and the id would not be the one it gave. */
const ENTRY_ID = /^(?:0|[1-9][0-9]{0,19})-(?:0|[1-9][0-9]{0,19})$/;

export class RedisEventStore implements McpEventStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly limits: StreamEventLimits,
  ) {}

  async append(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = (await this.redis.script(
      APPEND,
      [this.streamKey(streamId)],
      [JSON.stringify(message), String(this.limits.maxPerStream), String(this.limits.retentionMs)],
    )) as string;
    return eventId(streamId, id);
  }

  async replayAfter(lastEventId: string, sessionId: string) {
    const parsed = parseEventId(lastEventId);
    if (!parsed || !ENTRY_ID.test(parsed.position) || !sessionId || sessionOfStream(parsed.streamId) !== sessionId) return undefined;
    const key = this.streamKey(parsed.streamId);
    // The event must still be there (not trimmed, not expired): else the client missed an unknown amount.
    const last = await this.redis.commands.sendCommand<unknown[]>(['XRANGE', key, parsed.position, parsed.position]);
    if (!last.length || Number(parsed.position.split('-')[0]) < Date.now() - this.limits.retentionMs) return undefined;
    const entries = await this.redis.commands.sendCommand<Entry[]>(['XRANGE', key, `(${parsed.position}`, '+']);
    return {
      streamId: parsed.streamId,
      events: entries.map(([id, fields]) => ({ id: eventId(parsed.streamId, id), message: JSON.parse(fields[1]) as JSONRPCMessage })),
    };
  }

  async eventsOf(streamId: string) {
    const since = Date.now() - this.limits.retentionMs;
    const entries = await this.redis.commands.sendCommand<Entry[]>(['XRANGE', this.streamKey(streamId), `${Math.max(since, 0)}`, '+']);
    return entries.map(([id, fields]) => ({ id: eventId(streamId, id), message: JSON.parse(fields[1]) as JSONRPCMessage }));
  }

  private streamKey(streamId: string): string {
    return this.redis.key('events', streamId);
  }
}
