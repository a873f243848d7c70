import { Injectable } from '@nestjs/common';
import type { Implementation } from '@modelcontextprotocol/server';
import { sqltag as sql } from '@prisma/client/runtime/client';
import type { McpClientInfoStore } from '@nest-mcp/core/extensions';
import { McpDatabase } from '../database/mcp-database.js';

/**
 * The layer's `clientInfoStore`: in stateless mode (the default), the client each caller named
 * in its last handshake-era `initialize`, read by every replica, so that the caller's later
 * requests (which carry no session) are audited under that name. One row per caller in
 * `mcp_client_infos`, replaced by each `initialize` (an upsert); the layer keeps what it read for
 * a few seconds per replica, so this is not read on every request. Always on the pool's own
 * connections (`outsideTransaction`): it belongs to no call. Rows not updated for 30 days are
 * deleted by `ExpiredRowsCleanup`.
 */
@Injectable()
export class PrismaClientInfoStore implements McpClientInfoStore {
  constructor(private readonly database: McpDatabase) {}

  remember(callerKey: string, info: Implementation): Promise<void> {
    return this.database.outsideTransaction(async () => {
      // The database's clock, as the cleanup reads it.
      await this.database.sql(sql`
        INSERT INTO mcp_client_infos (caller_key, name, version, updated_at)
        VALUES (${callerKey}, ${info.name}, ${info.version ?? null}, now() AT TIME ZONE 'UTC')
        ON CONFLICT (caller_key) DO UPDATE SET name = EXCLUDED.name, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at`);
    });
  }

  recall(callerKey: string): Promise<Implementation | undefined> {
    return this.database.outsideTransaction(async () => {
      const {
        rows: [row],
      } = await this.database.sql<{ name: string; version: string | null }>(
        sql`SELECT name, version FROM mcp_client_infos WHERE caller_key = ${callerKey}`,
      );
      if (!row) return undefined;
      return { name: row.name, ...(row.version !== null ? { version: row.version } : {}) } as Implementation;
    });
  }
}
