import { Injectable } from '@nestjs/common';
import { sqltag as sql } from '@prisma/client/runtime/client';
import type { McpRequestStateStore } from '@nest-mcp/core/extensions';
import { McpDatabase } from '../database/mcp-database.js';

/**
 * One-time use of multi round-trip `requestState` values, across replicas: the primary key of
 * `mcp_request_state_uses` accepts each id once.
 *
 * Written inside the call's transaction when there is one (every call that may write): if the
 * call then fails and rolls back, the use is undone with its writes, and the client may retry
 * with the same state; a state is "used" exactly when the call it confirmed committed. A
 * concurrent second use blocks on the key until the first transaction ends, and is refused if it
 * committed. Read-only calls have no transaction; there the use commits at once.
 *
 * A `final` use (a declined confirmation, whose error answer rolls the call back) is written in
 * the call's transaction too (that insert decides, atomically, whether the state was fresh) and
 * once more when the transaction has ended, so that it stays whatever the call's transaction did.
 */
@Injectable()
export class PrismaRequestStateStore implements McpRequestStateStore {
  constructor(private readonly database: McpDatabase) {}

  async consume(id: string, expiresAt: Date, options: { final?: boolean } = {}): Promise<boolean> {
    const fresh = await this.insert(id, expiresAt);
    if (options.final && fresh) await this.database.afterTransaction(() => this.insert(id, expiresAt));
    return fresh;
  }

  private async insert(id: string, expiresAt: Date): Promise<boolean> {
    // The instant is sent as ISO text and stored as UTC `timestamp` (Prisma's convention).
    const inserted = await this.database.sql(sql`
      INSERT INTO mcp_request_state_uses (id, expires_at)
      VALUES (${id}, ${expiresAt.toISOString()}::timestamptz AT TIME ZONE 'UTC')
      ON CONFLICT (id) DO NOTHING
      RETURNING id`);
    return inserted.rowCount === 1;
  }
}
