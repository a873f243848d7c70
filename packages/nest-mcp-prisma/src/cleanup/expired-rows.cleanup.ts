import { Inject, Injectable } from '@nestjs/common';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { McpDatabase } from '../database/mcp-database.js';
import { MCP_PRISMA_OPTIONS, type ResolvedMcpPrismaOptions } from '../options/mcp-prisma.options.js';
import { PeriodicCleanup } from './periodic-cleanup.js';

/** How long the client info of a caller that does not `initialize` again is kept (`mcp_client_infos`). */
export const CLIENT_INFO_RETENTION_DAYS = 30;

/**
 * Deletes expired idempotency records and request-state uses now and then, and the client infos
 * of callers that have not initialized for `CLIENT_INFO_RETENTION_DAYS`. Only housekeeping: an
 * expired key is reused on its next claim, an expired `requestState` fails its own expiry check,
 * and a client info is only a name (the caller's next `initialize` writes it again), so
 * correctness never waits for this. Audit rows are never deleted here: how long a trail is kept
 * is the application's policy.
 */
@Injectable()
export class ExpiredRowsCleanup extends PeriodicCleanup {
  constructor(
    private readonly database: McpDatabase,
    @Inject(MCP_PRISMA_OPTIONS) options: ResolvedMcpPrismaOptions,
  ) {
    super({ loggerName: 'McpPrismaCleanup', rows: 'expired idempotency rows', intervalMs: options.cleanupIntervalMs });
  }

  // The database's clock, not `now`: it is the one that wrote `expires_at`.
  protected async deleteExpired(): Promise<number> {
    const records = await this.database.sql(sql`DELETE FROM mcp_idempotency_records WHERE expires_at < (now() AT TIME ZONE 'UTC')`);
    const uses = await this.database.sql(sql`DELETE FROM mcp_request_state_uses WHERE expires_at < (now() AT TIME ZONE 'UTC')`);
    const clients = await this.database.sql(sql`
      DELETE FROM mcp_client_infos WHERE updated_at < (now() AT TIME ZONE 'UTC') - make_interval(days => ${CLIENT_INFO_RETENTION_DAYS})`);
    return records.rowCount + uses.rowCount + clients.rowCount;
  }
}
