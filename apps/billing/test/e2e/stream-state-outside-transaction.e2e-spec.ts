import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { PrismaService } from '../../src/database/prisma.service.js';
import { PostgresEventStore, PostgresMessageBus } from '@nest-mcp/prisma';
import { createTestDatabase, prismaOn, type TestDatabase } from '../support/test-database.js';

/**
 * Stream state in PostgreSQL is written outside the call's transaction (a replica must see it at once): an
 * event a call sends while it runs is replayable on every replica at once, and stays so when the
 * call rolls back; a bus message it publishes reaches the other replicas at once, not at commit.
 * Before, both were written on the transaction's connection: invisible to the other replicas
 * until the commit, gone on a rollback or a crash.
 */
describe('stream state outside the call transaction (PostgreSQL)', { skip: !process.env.DATABASE_URL && 'needs a real PostgreSQL' }, () => {
  let database: TestDatabase;
  let prisma: PrismaService;
  let other: pg.Client;

  before(async () => {
    database = await createTestDatabase();
    prisma = prismaOn(database.url);
    other = new pg.Client({ connectionString: database.url });
    await other.connect();
  });
  after(async () => {
    await other?.end();
    await prisma?.onApplicationShutdown();
    await database?.close();
  });

  it('an event appended inside a transaction is visible to another connection before the commit, and survives the rollback', async () => {
    const events = new PostgresEventStore(prisma, { retentionMs: 600_000, maxPerStream: 1000 });
    const streamId = `${randomUUID()}/post-${randomUUID()}`;
    const seenInside: number[] = [];
    await assert.rejects(
      prisma.transaction(async () => {
        await events.append(streamId, { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } });
        const rows = await other.query('SELECT count(*)::int AS n FROM mcp_stream_events WHERE stream_id = $1', [streamId]);
        seenInside.push(rows.rows[0].n as number);
        throw new Error('the call fails: its transaction rolls back');
      }),
      /rolls back/,
    );
    assert.deepEqual(seenInside, [1], 'another replica could read it while the call ran');
    assert.equal((await events.eventsOf(streamId)).length, 1, 'still replayable after the rollback');
  });

  it('a bus message published inside a transaction reaches another replica before the commit', async () => {
    const channel = `mcp_bus_${randomUUID().slice(0, 8)}`;
    const publisher = new PostgresMessageBus(prisma, channel);
    const listener = new PostgresMessageBus(prisma, channel);
    try {
      let heard!: () => void;
      const arrived = new Promise<void>((resolve) => (heard = resolve));
      await listener.subscribe('c', () => heard());
      let heardBeforeCommit = false;
      await prisma.transaction(async () => {
        await publisher.publish('c', { n: 1 });
        heardBeforeCommit = await Promise.race([arrived.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 2_000))]);
      });
      assert.equal(heardBeforeCommit, true);
    } finally {
      await publisher.close();
      await listener.close();
    }
  });
});
