import { sqltag as sql } from '@prisma/client/runtime/client';
import type { McpDatabase } from '../database/mcp-database.js';
import { utc, type StreamEventLimits } from '../streams/stream-limits.js';
import { PeriodicCleanup } from './periodic-cleanup.js';

/**
 * Deletes expired sessions (their subscriptions go with them) and events older than the retention
 * now and then. Only housekeeping: the stores never answer with an expired row, so correctness
 * never waits for this. `McpPrismaModule` runs one when its `streams` option is given.
 */
export class StreamRowsCleanup extends PeriodicCleanup {
  constructor(
    private readonly database: McpDatabase,
    private readonly settings: { limits: Pick<StreamEventLimits, 'retentionMs'>; cleanupIntervalMs: number },
  ) {
    super({ loggerName: 'McpStreamsCleanup', rows: 'expired stream rows', intervalMs: settings.cleanupIntervalMs });
  }

  protected async deleteExpired(now: Date): Promise<number> {
    const sessions = await this.database.sql(sql`DELETE FROM mcp_sessions WHERE expires_at <= ${utc(now)}`);
    const since = new Date(now.getTime() - this.settings.limits.retentionMs);
    const events = await this.database.sql(sql`DELETE FROM mcp_stream_events WHERE created_at < ${utc(since)}`);
    return sessions.rowCount + events.rowCount;
  }
}
