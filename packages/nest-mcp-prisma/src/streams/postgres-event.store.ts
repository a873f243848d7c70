import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { eventId, type McpEventStore, parseEventId, sessionOfStream } from '@nest-mcp/core/extensions';
import type { McpDatabase } from '../database/mcp-database.js';
import { utc, type StreamEventLimits } from './stream-limits.js';

/**
 * Replayable SSE events in `mcp_stream_events`, shared by every replica. The position in an event
 * id is the table's sequence (`seq`), unique across replicas and increasing, so "after" is `>`.
 * Bounded by age (rows older than the retention are never replayed; the cleanup deletes them) and
 * per stream (at most `maxPerStream`, the oldest deleted on append). Read and written outside any
 * request's transaction (`outsideTransaction`): an event is replayable on every replica as soon as
 * it is sent, while the call that sent it still runs, and stays so if that call rolls back or its
 * replica dies.
 */
export class PostgresEventStore implements McpEventStore {
  constructor(
    private readonly database: McpDatabase,
    private readonly limits: StreamEventLimits,
  ) {}

  append(streamId: string, message: JSONRPCMessage): Promise<string> {
    return this.database.outsideTransaction(async () => {
      // created_at from this replica's clock, in UTC like every other timestamp the stores compare.
      const {
        rows: [row],
      } = await this.database.sql<{ seq: string }>(sql`
        INSERT INTO mcp_stream_events (stream_id, session_id, message, created_at)
        VALUES (${streamId}, ${sessionOfStream(streamId)}, ${JSON.stringify(message)}::jsonb, ${utc(new Date())})
        RETURNING seq::text AS seq`);
      // The per-stream bound, as Redis's MAXLEN: the oldest beyond it go (a long-lived GET stream).
      await this.database.sql(sql`
        DELETE FROM mcp_stream_events WHERE stream_id = ${streamId} AND seq < (
          SELECT seq FROM mcp_stream_events WHERE stream_id = ${streamId} ORDER BY seq DESC OFFSET ${this.limits.maxPerStream - 1} LIMIT 1)`);
      return eventId(streamId, row.seq);
    });
  }

  replayAfter(lastEventId: string, sessionId: string) {
    const parsed = parseEventId(lastEventId);
    if (!parsed || !/^[1-9][0-9]{0,17}$/.test(parsed.position) || !sessionId) return Promise.resolve(undefined);
    return this.database.outsideTransaction(async () => {
      const { rows: last } = await this.database.sql(sql`
        SELECT 1 FROM mcp_stream_events
        WHERE seq = ${parsed.position}::bigint AND stream_id = ${parsed.streamId} AND session_id = ${sessionId}
          AND created_at >= ${this.since()}`);
      if (!last.length) return undefined;
      return { streamId: parsed.streamId, events: await this.events(parsed.streamId, parsed.position) };
    });
  }

  eventsOf(streamId: string) {
    return this.database.outsideTransaction(() => this.events(streamId, '0'));
  }

  /** The stream's events after position `after`, oldest first, within the retention. */
  private async events(streamId: string, after: string) {
    // Ordered by the column, not by the text alias of the same name (as text, 10 would come before 9).
    const { rows } = await this.database.sql<{ seq: string; message: JSONRPCMessage }>(sql`
      SELECT seq::text AS seq, message FROM mcp_stream_events
      WHERE stream_id = ${streamId} AND seq > ${after}::bigint AND created_at >= ${this.since()}
      ORDER BY mcp_stream_events.seq`);
    return rows.map((row) => ({ id: eventId(streamId, row.seq), message: row.message }));
  }

  private since() {
    return utc(new Date(Date.now() - this.limits.retentionMs));
  }
}
