import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, prismaOn, type TestDatabase } from '../../test/support/test-database.js';
import { RequestContext } from '../context/request-context.js';
import { Prisma } from '../generated/prisma/client.js';
import { TransactionExpiredError } from '@nest-mcp/prisma';
import { PrismaService } from './prisma.service.js';

/** `PrismaService.transaction` on a real database: what runs inside commits or rolls back as one. */
describe('PrismaService transactions (pooled connection, routed by context)', () => {
  let database: TestDatabase;
  let prisma: PrismaService;
  let slugs = 0;
  const slug = () => `tx-${++slugs}-${process.pid}`;
  const inRequest = <T>(work: () => Promise<T>) => RequestContext.run({ channel: 'api' }, work);
  const workspaceCount = (s: string) => prisma.client.workspace.count({ where: { slug: s } });

  before(async () => {
    database = await createTestDatabase();
    prisma = prismaOn(database.url);
  });
  after(async () => {
    await prisma.onApplicationShutdown();
    await database.close();
  });

  it('commits model writes and direct SQL of the work together', async () => {
    const [a, b] = [slug(), slug()];
    await prisma.transaction(async (tx) => {
      await tx.workspace.create({ data: { slug: a, name: 'A' } });
      await prisma.sql(Prisma.sql`INSERT INTO workspaces (id, slug, name) VALUES (gen_random_uuid(), ${b}, 'B')`);
    });
    assert.equal(await workspaceCount(a), 1);
    assert.equal(await workspaceCount(b), 1);
  });

  it('rolls back every write of the work when it throws, through prisma.db as well as tx', async () => {
    const [a, b] = [slug(), slug()];
    await assert.rejects(
      prisma.transaction(async () => {
        await prisma.db.workspace.create({ data: { slug: a, name: 'A' } });
        await prisma.sql(Prisma.sql`INSERT INTO workspaces (id, slug, name) VALUES (gen_random_uuid(), ${b}, 'B')`);
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.equal(await workspaceCount(a), 0);
    assert.equal(await workspaceCount(b), 0);
  });

  it('keeps a nested write Prisma makes atomic itself inside the transaction: it does not commit it early', async () => {
    const [a, b] = [slug(), slug()];
    const nestedCreate = (s: string) =>
      prisma.db.workspace.create({
        data: {
          slug: s,
          name: s,
          customers: {
            create: [
              { name: 'C1', email: `c1@${s}.test`, createdVia: 'api', updatedVia: 'api' },
              { name: 'C2', email: `c2@${s}.test`, createdVia: 'api', updatedVia: 'api' },
            ],
          },
        },
      });
    await assert.rejects(
      inRequest(() =>
        prisma.transaction(async () => {
          await nestedCreate(a);
          throw new Error('after the nested write');
        }),
      ),
      /after the nested write/,
    );
    assert.equal(await workspaceCount(a), 0);
    assert.equal(await prisma.client.customer.count({ where: { email: `c1@${a}.test` } }), 0);

    await inRequest(() => prisma.transaction(() => nestedCreate(b)));
    assert.equal(await prisma.client.customer.count({ where: { workspace: { slug: b } } }), 2);
  });

  it('runs a query the work returns without awaiting it (Prisma queries are lazy) inside the transaction', async () => {
    // The transaction fails at its commit (a waiting write divides by zero): the returned write
    // is rolled back with it only if it ran inside; run outside, it would have committed on its own.
    const name = slug();
    await assert.rejects(
      prisma.transaction(() => {
        void prisma.sqlBeforeCommit(Prisma.sql`SELECT 1/0`);
        return prisma.db.workspace.create({ data: { slug: name, name: 'lazy' } });
      }),
      /division by zero/,
    );
    assert.equal(await workspaceCount(name), 0);
  });

  it('a nested call with savepoint rolls back only its own writes', async () => {
    const [outer, inner] = [slug(), slug()];
    await prisma.transaction(async (tx) => {
      await tx.workspace.create({ data: { slug: outer, name: 'outer' } });
      await assert.rejects(
        prisma.transaction(
          async (nested) => {
            await nested.workspace.create({ data: { slug: inner, name: 'inner' } });
            throw new Error('inner refused');
          },
          { savepoint: true },
        ),
        /inner refused/,
      );
    });
    assert.equal(await workspaceCount(outer), 1);
    assert.equal(await workspaceCount(inner), 0);
  });

  it('keeps concurrent transactions apart: one rolling back does not touch the other', async () => {
    const [kept, dropped] = [slug(), slug()];
    const results = await Promise.allSettled([
      prisma.transaction(async (tx) => {
        await tx.workspace.create({ data: { slug: kept, name: 'kept' } });
        await sleep(50);
      }),
      prisma.transaction(async (tx) => {
        await tx.workspace.create({ data: { slug: dropped, name: 'dropped' } });
        await sleep(25);
        throw new Error('second fails');
      }),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected'],
    );
    assert.equal(await workspaceCount(kept), 1);
    assert.equal(await workspaceCount(dropped), 0);
  });

  it('rolls back a transaction held past its limit; the work cannot write outside it afterwards', async () => {
    const [early, late] = [slug(), slug()];
    prisma.transactionLimitMs = 150;
    try {
      await assert.rejects(
        prisma.transaction(async (tx) => {
          await tx.workspace.create({ data: { slug: early, name: 'early' } });
          await sleep(400);
          await tx.workspace.create({ data: { slug: late, name: 'late' } });
        }),
        (error: unknown) => String(error).includes('held open longer than 150 ms'),
      );
    } finally {
      prisma.transactionLimitMs = 15_000;
    }
    assert.equal(await workspaceCount(early), 0);
    assert.equal(await workspaceCount(late), 0);
    assert.ok(new TransactionExpiredError(150).message.includes('150 ms'));
  });

  it('runs afterTransaction work once the transaction ended, outside it, even when it rolled back', async () => {
    const kept = slug();
    await assert.rejects(
      prisma.transaction(async () => {
        await prisma.afterTransaction(async () => {
          assert.equal(prisma.inTransaction, false);
          await prisma.client.workspace.create({ data: { slug: kept, name: 'after' } });
        });
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    assert.equal(await workspaceCount(kept), 1);
  });

  it('sends the writes waiting for the commit as one statement, which commits with the rest or not at all', async () => {
    const [a, b, c, d] = [slug(), slug(), slug(), slug()];
    const insert = (s: string) => Prisma.sql`INSERT INTO workspaces (id, slug, name) VALUES (gen_random_uuid(), ${s}, ${'name of ' + s})`;
    await prisma.transaction(async () => {
      await prisma.sqlBeforeCommit(insert(a));
      await prisma.sqlBeforeCommit(insert(b));
      // Not yet written: seen from inside the transaction, the rows are not there.
      assert.equal((await prisma.sql(Prisma.sql`SELECT 1 FROM workspaces WHERE slug IN (${a}, ${b})`)).rowCount, 0);
      // A part rolled back to its savepoint takes its waiting writes with it.
      await prisma
        .transaction(
          async () => {
            await prisma.sqlBeforeCommit(insert(c));
            throw new Error('inner refused');
          },
          { savepoint: true },
        )
        .catch(() => undefined);
    });
    assert.deepEqual(await Promise.all([a, b, c].map(workspaceCount)), [1, 1, 0]);
    assert.equal((await prisma.client.workspace.findFirstOrThrow({ where: { slug: b } })).name, `name of ${b}`);

    await assert.rejects(
      prisma.transaction(async () => {
        await prisma.sqlBeforeCommit(insert(d));
        throw new Error('rolled back');
      }),
    );
    assert.equal(await workspaceCount(d), 0);
    // Outside a transaction: at once.
    await prisma.sqlBeforeCommit(insert(d));
    assert.equal(await workspaceCount(d), 1);
  });

  it('a waiting write the database refuses fails the transaction, and nothing of it stays', async () => {
    const kept = slug();
    await assert.rejects(
      prisma.transaction(async (tx) => {
        await tx.workspace.create({ data: { slug: kept, name: 'kept?' } });
        await prisma.sqlBeforeCommit(Prisma.sql`INSERT INTO workspaces (id, slug, name) VALUES (gen_random_uuid(), ${kept}, 'duplicate')`);
      }),
      /duplicate key|unique/i,
    );
    assert.equal(await workspaceCount(kept), 0);
  });

  it('gives every connection back: many transactions, failing or not, never exhaust the pool', async () => {
    for (let i = 0; i < 30; i++) {
      await prisma
        .transaction(async (tx) => {
          await tx.workspace.count();
          if (i % 2) throw new Error('odd');
        })
        .catch(() => undefined);
    }
    // The pool holds 10 connections by default: had any been kept, the next ones would time out.
    assert.equal(await prisma.transaction((tx) => tx.workspace.count({ where: { slug: 'none' } })), 0);
  });

  it('ends a transaction that sent no statement (BEGIN still held back): failing, empty, or with waiting writes only', async () => {
    const waiting = slug();
    for (let i = 0; i < 12; i++) {
      await assert.rejects(
        prisma.transaction(() => Promise.reject(new Error('refused before any statement'))),
        /refused before any statement/,
      );
      assert.equal(await prisma.transaction(() => Promise.resolve('nothing to do')), 'nothing to do');
    }
    await prisma.transaction(async () => {
      await prisma.sqlBeforeCommit(Prisma.sql`INSERT INTO workspaces (id, slug, name) VALUES (gen_random_uuid(), ${waiting}, 'w')`);
    });
    assert.equal(await workspaceCount(waiting), 1);
  });
});
