import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { DatabaseUnavailableException, McpDatabase, TransactionExpiredError } from '../../src/index.js';
import { SqlTransactionScope } from '../../src/database/sql-transaction.js';
import { createPackageDatabase, NEEDS_DATABASE, type PackageDatabase } from '../support/package-database.js';

/** The unit of work on a real PostgreSQL: what runs inside `transaction` commits or rolls back as one. */
describe('McpDatabase transactions (real PostgreSQL)', { skip: NEEDS_DATABASE }, () => {
  let database: PackageDatabase;
  let db: McpDatabase;
  let titles = 0;
  const title = () => `note-${++titles}`;
  const insert = (t: string) => db.sql(sql`INSERT INTO notes (title, created_via, updated_via) VALUES (${t}, 'api', 'api')`);
  const count = async (t: string) => Number((await database.rows('SELECT count(*) AS n FROM notes WHERE title = $1', [t]))[0].n);

  before(async () => {
    database = await createPackageDatabase();
    db = new McpDatabase({ url: database.url });
  });
  after(async () => {
    await db?.onApplicationShutdown();
    await database?.close();
  });

  it('commits the statements of the work together, and rolls every one back when it throws', async () => {
    const [a, b] = [title(), title()];
    await db.transaction(async () => {
      await insert(a);
      await insert(b);
    });
    assert.deepEqual([await count(a), await count(b)], [1, 1]);
    const [c, d] = [title(), title()];
    await assert.rejects(
      db.transaction(async () => {
        await insert(c);
        await insert(d);
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    assert.deepEqual([await count(c), await count(d)], [0, 0]);
  });

  it('a nested call with savepoint rolls back only its own writes; the outer work commits', async () => {
    const [outer, inner] = [title(), title()];
    await db.transaction(async () => {
      await insert(outer);
      await db
        .transaction(
          async () => {
            await insert(inner);
            throw new Error('inner fails');
          },
          { savepoint: true },
        )
        .catch(() => undefined);
    });
    assert.deepEqual([await count(outer), await count(inner)], [1, 0]);
  });

  it('sends the writes waiting for the commit with it: they commit with the rest, or fail the transaction whole', async () => {
    const kept = title();
    await db.transaction(async () => {
      await insert(kept);
      await db.sqlBeforeCommit(sql`UPDATE notes SET updated_via = 'mcp' WHERE title = ${kept}`);
      // Not sent yet: a read inside the transaction still sees the row as it was.
      assert.equal((await db.sql<{ via: string }>(sql`SELECT updated_via AS via FROM notes WHERE title = ${kept}`)).rows[0].via, 'api');
    });
    assert.equal((await database.rows('SELECT updated_via FROM notes WHERE title = $1', [kept]))[0].updated_via, 'mcp');
    const refused = title();
    await assert.rejects(
      db.transaction(async () => {
        await insert(refused);
        await db.sqlBeforeCommit(sql`INSERT INTO notes (title, created_via, updated_via) VALUES (${refused}, 'api', 'api')`);
      }),
      /duplicate key|unique/i,
    );
    assert.equal(await count(refused), 0);
  });

  it('pipelines: BEGIN leaves with the first statement, the waiting writes with COMMIT (two writes to the socket)', async () => {
    type Counted = { _write: (...a: unknown[]) => void; _writev?: (...a: unknown[]) => void };
    let writes = 0;
    let socket: Counted | undefined;
    const name = title();
    await db.transaction(async () => {
      socket = SqlTransactionScope.current()!.client.connection.stream as unknown as Counted;
      for (const method of ['_write', '_writev'] as const) {
        const original = socket[method];
        if (!original) continue;
        socket[method] = (...args: unknown[]) => {
          writes++;
          return original.apply(socket, args);
        };
      }
      await insert(name);
      await db.sqlBeforeCommit(sql`UPDATE notes SET updated_via = 'mcp' WHERE title = ${name}`);
    });
    for (const method of ['_write', '_writev'] as const) delete (socket as Partial<Counted>)[method];
    assert.equal(writes, 2);
    assert.equal(await count(name), 1);
  });

  it('keeps concurrent transactions apart: one rolling back does not touch the other', async () => {
    const [a, b] = [title(), title()];
    await Promise.allSettled([
      db.transaction(async () => {
        await insert(a);
        await sleep(30);
      }),
      db.transaction(async () => {
        await insert(b);
        await sleep(10);
        throw new Error('b fails');
      }),
    ]);
    assert.deepEqual([await count(a), await count(b)], [1, 0]);
  });

  it('rolls back a transaction held past its limit, and says why; the work cannot write outside it afterwards', async () => {
    const [before, later] = [title(), title()];
    await assert.rejects(
      db.transaction(
        async () => {
          await insert(before);
          await sleep(150);
          await insert(later);
        },
        { limitMs: 50 },
      ),
      TransactionExpiredError,
    );
    assert.deepEqual([await count(before), await count(later)], [0, 0]);
  });

  it('runs afterTransaction work once the transaction ended (even rolled back), afterCommit only on a commit', async () => {
    const [afterEnd, announced] = [title(), [] as string[]];
    await db
      .transaction(async () => {
        await db.afterTransaction(() => insert(afterEnd));
        db.afterCommit(() => announced.push('rolled back'));
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await db.transaction(async () => {
      db.afterCommit(() => announced.push('committed'));
    });
    assert.equal(await count(afterEnd), 1);
    assert.deepEqual(announced, ['committed']);
  });

  it('gives every connection back: many transactions, failing or not, never exhaust the pool', async () => {
    const small = new McpDatabase({ url: database.url, poolSize: 2, connectTimeoutMs: 2_000 });
    try {
      for (let i = 0; i < 20; i++) {
        await small
          .transaction(async () => {
            await small.sql(sql`SELECT 1`);
            if (i % 2) throw new Error('odd');
          })
          .catch(() => undefined);
      }
      assert.equal((await small.sql<{ one: number }>(sql`SELECT 1 AS one`)).rows[0].one, 1);
    } finally {
      await small.onApplicationShutdown();
    }
  });

  it('answers DatabaseUnavailableException (503, Retry-After) when the server cannot be reached, never a driver error', async () => {
    const unreachable = new URL(database.url);
    unreachable.port = '1';
    const down = new McpDatabase({ url: unreachable.href, connectTimeoutMs: 500, retryAfterSeconds: 7 });
    try {
      const failure = await db
        .sql(sql`SELECT 1`)
        .then(() => down.sql(sql`SELECT 1`))
        .catch((error: unknown) => error);
      assert.ok(failure instanceof DatabaseUnavailableException, String(failure));
      assert.equal(failure.getStatus(), 503);
      assert.deepEqual(failure.headers, { 'Retry-After': '7' });
      await assert.rejects(
        down.transaction(async () => undefined),
        DatabaseUnavailableException,
      );
    } finally {
      await down.onApplicationShutdown();
    }
  });
});
