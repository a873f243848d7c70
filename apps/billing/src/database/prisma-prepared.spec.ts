import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { coreConfigFromEnv } from '../config/environment.js';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from './prisma.service.js';

/** `PrismaService.prepared` on the test database: named once per distinct text, or plain when told not to name any. */
describe('PrismaService.prepared', () => {
  let database: TestDatabase;
  const services: PrismaService[] = [];
  /** A service whose pool records the first argument of each query it sends. */
  const serviceOf = (preparedStatements: boolean) => {
    const prisma = new PrismaService({ ...coreConfigFromEnv(process.env).database, url: database.url, preparedStatements });
    services.push(prisma);
    const sent: unknown[] = [];
    const query = prisma.pool.query.bind(prisma.pool) as (...args: unknown[]) => unknown;
    (prisma.pool as { query: unknown }).query = (...args: unknown[]) => {
      sent.push(args[0]);
      return query(...args);
    };
    return { prisma, sent };
  };
  const byTier = (tier: number) => Prisma.sql`SELECT ${tier}::int + 1 AS next`;
  /** How each of this test's statements (`… AS next`) went: by its name, or `plain`. */
  const named = (sent: unknown[]) =>
    sent
      .filter((arg) => (typeof arg === 'string' ? arg : ((arg as { text?: string }).text ?? '')).includes('AS next'))
      .map((arg) => (typeof arg === 'object' && arg !== null ? ((arg as { name?: string }).name ?? 'plain') : 'plain'));

  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    for (const prisma of services) await prisma.onApplicationShutdown();
    await database.close();
  });

  it('sends a statement by its name, one name per distinct text, with the values of each call (plain on the embedded database)', async () => {
    const { prisma, sent } = serviceOf(true);
    assert.deepEqual((await prisma.prepared<{ next: number }>('tier', byTier(1))).rows, [{ next: 2 }]);
    assert.deepEqual((await prisma.prepared<{ next: number }>('tier', byTier(41))).rows, [{ next: 42 }]);
    await prisma.prepared('tier', Prisma.sql`SELECT 'other text' AS next`);
    // The embedded database's connections share one session, and so one set of names: nothing is named there.
    const expected = (await prisma.isEmbedded()) ? ['plain', 'plain', 'plain'] : ['tier_0', 'tier_0', 'tier_1'];
    assert.deepEqual(named(sent), expected);
  });

  it('names nothing with preparedStatements: false (DATABASE_PREPARED_STATEMENTS=false, a pooler that drops them)', async () => {
    const { prisma, sent } = serviceOf(false);
    assert.deepEqual((await prisma.prepared<{ next: number }>('tier', byTier(1))).rows, [{ next: 2 }]);
    assert.deepEqual(named(sent), ['plain']);
  });
});
