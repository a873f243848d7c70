import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import type { McpRequestStateStore } from '../mcp/index.js';

/**
 * One-time use of multi round-trip `requestState` values, across replicas: the primary key of
 * `request_state_uses` accepts each id once.
 *
 * Written through `prisma.db`, i.e. inside the call's transaction when there is one (every call
 * that may write), not through the root client: if the call then fails and rolls back, its
 * writes are undone and so is the use, and the client may retry with the same state; a state is
 * "used" exactly when the call it confirmed committed. A concurrent second use blocks on the key
 * until the first transaction ends, and is refused if it committed. Read-only calls have no
 * transaction; there the use commits at once.
 *
 * A `final` use (a declined confirmation, whose error answer rolls the call back) is written
 * through the root client instead: it commits at once, whatever the call's transaction does. That
 * takes a second pool connection for a moment, only on that rare path.
 */
@Injectable()
export class PrismaRequestStateStore implements McpRequestStateStore {
  constructor(private readonly prisma: PrismaService) {}

  async consume(id: string, expiresAt: Date, options: { final?: boolean } = {}): Promise<boolean> {
    const db = options.final ? this.prisma.client : this.prisma.db;
    // The instant is sent as ISO text and stored as UTC `timestamp` (Prisma's convention).
    const inserted = await db.$queryRaw<unknown[]>`
      INSERT INTO request_state_uses (id, expires_at)
      VALUES (${id}, ${expiresAt.toISOString()}::timestamptz AT TIME ZONE 'UTC')
      ON CONFLICT (id) DO NOTHING
      RETURNING id`;
    return inserted.length === 1;
  }
}
