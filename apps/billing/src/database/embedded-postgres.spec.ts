import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { EmbeddedPostgres, findRunningEmbedded, STATE_FILE_NAME } from './embedded-postgres.js';
import { findProjectRoot, runMigrations } from './migrations.js';

/** In memory, from the migrated snapshot run-tests.mjs prepares (else migrated here, slower). */
async function startMigrated(): Promise<EmbeddedPostgres> {
  const snapshot = process.env.TEST_PGLITE_SNAPSHOT;
  const embedded = await EmbeddedPostgres.start(snapshot ? { loadDataDir: await openAsBlob(snapshot) } : {});
  if (!snapshot) await runMigrations(embedded.url);
  return embedded;
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

describe('EmbeddedPostgres (PGlite over the wire protocol)', () => {
  let embedded: EmbeddedPostgres;
  let pool: pg.Pool;

  before(async () => {
    embedded = await startMigrated();
    pool = new pg.Pool({ connectionString: embedded.url, max: 10 });
    await pool.query('CREATE TABLE items (id serial PRIMARY KEY, owner text NOT NULL, n int NOT NULL)');
  });
  after(async () => {
    await pool?.end();
    await embedded?.stop();
  });

  it('serves postgresql://postgres@127.0.0.1:<free port>/postgres; other user and database names map to it', async () => {
    assert.match(embedded.url, /^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    assert.ok(embedded.port > 0);
    const other = new pg.Client({ connectionString: `postgresql://someone@127.0.0.1:${embedded.port}/elsewhere` });
    await other.connect();
    const { rows } = await other.query('SELECT current_user AS "user", current_database() AS db');
    await other.end();
    assert.deepEqual(rows, [{ user: 'postgres', db: 'postgres' }]);
  });

  it('runs 50 concurrent parameterized queries over a pool of 10, each getting its own result', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        pool.query(`SELECT $1::int AS n, $2::text AS s, ${i} AS k`, [i, `s${i}`]).then((r) => r.rows[0]),
      ),
    );
    results.forEach((row, i) => assert.deepEqual(row, { n: i, s: `s${i}`, k: i }));
  });

  it('keeps extended-protocol exchanges whole when messages span many TCP reads (300 KB parameters)', async () => {
    // Regression: pglite-socket 0.2.17 interleaved Parse/Bind of different connections here.
    const big = (i: number) => String.fromCharCode(97 + (i % 26)).repeat(300_000 + i);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2
          ? pool.query(`SELECT length($1::text) AS n, ${i} AS k`, [big(i)])
          : pool.query(`SELECT $1::int AS n, ${i} AS k`, [300_000 + i])
        ).then((r) => r.rows[0]),
      ),
    );
    results.forEach((row, i) => assert.deepEqual(row, { n: 300_000 + i, k: i }));
  });

  it('runs interactive transactions from different pool clients concurrently: commits and a rollback', async () => {
    const owners = ['t1', 't2', 't3', 't4'];
    await Promise.all(
      owners.map(async (owner) => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          for (let n = 0; n < 5; n++) {
            await client.query('INSERT INTO items (owner, n) VALUES ($1, $2)', [owner, n]);
            await sleep(1); // yield: other clients try to get in meanwhile
          }
          const { rows } = await client.query('SELECT count(*)::int AS c FROM items WHERE owner = $1', [owner]);
          assert.equal(rows[0].c, 5);
          await client.query(owner === 't3' ? 'ROLLBACK' : 'COMMIT');
        } finally {
          client.release();
        }
      }),
    );
    const { rows } = await pool.query(
      `SELECT owner, count(*)::int AS c, array_agg(n ORDER BY n) AS ns FROM items WHERE owner LIKE 't%' GROUP BY owner ORDER BY owner`,
    );
    assert.deepEqual(rows, [
      { owner: 't1', c: 5, ns: [0, 1, 2, 3, 4] },
      { owner: 't2', c: 5, ns: [0, 1, 2, 3, 4] },
      { owner: 't4', c: 5, ns: [0, 1, 2, 3, 4] },
    ]);
  });

  it('serializes: while a transaction is open, other connections wait for it (no concurrent sessions)', async () => {
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`INSERT INTO items (owner, n) VALUES ('serial', 1)`);
      let answered = false;
      const other = pool.query(`SELECT count(*)::int AS c FROM items WHERE owner = 'serial'`).then((r) => {
        answered = true;
        return r.rows[0].c;
      });
      await sleep(200);
      assert.equal(answered, false, 'the other connection waits while the transaction is open');
      assert.equal(embedded.stats().waiting, 1);
      await holder.query('COMMIT');
      assert.equal(await other, 1, 'and then sees the committed row');
    } finally {
      holder.release();
    }
  });

  it('isolates errors: a failed statement or aborted transaction on one connection does not affect others', async () => {
    const a = await pool.connect();
    try {
      await a.query('BEGIN');
      await assert.rejects(a.query('SELECT 1/0'), /division by zero/);
      await assert.rejects(a.query('SELECT 1'), /current transaction is aborted/);
      await a.query('ROLLBACK');
      assert.deepEqual((await a.query('SELECT 2 AS x')).rows, [{ x: 2 }]);
    } finally {
      a.release();
    }
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => pool.query(i % 3 ? 'SELECT $1::int AS n' : 'SELECT $1::int / 0 AS n', [i])),
    );
    results.forEach((r, i) => {
      if (i % 3) assert.deepEqual(r.status === 'fulfilled' && r.value.rows, [{ n: i }]);
      else assert.equal(r.status, 'rejected');
    });
  });

  it('rolls back the open transaction of a connection that disconnects, and lets the others go on', async () => {
    const client = new pg.Client({ connectionString: embedded.url });
    await client.connect();
    await client.query('BEGIN');
    await client.query(`INSERT INTO items (owner, n) VALUES ('dropped', 1)`);
    const waiting = pool.query(`SELECT count(*)::int AS c FROM items WHERE owner = 'dropped'`);
    await sleep(50);
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    client.on('error', () => undefined);
    assert.equal((await waiting).rows[0].c, 0);
  });

  it('accepts another process while this one holds 10 pooled connections', async () => {
    const held = await Promise.all(Array.from({ length: 10 }, () => pool.connect()));
    try {
      const script = `
        import pg from 'pg';
        const client = new pg.Client({ connectionString: process.argv[1] });
        await client.connect();
        const { rows } = await client.query("SELECT count(*)::int AS c FROM items WHERE owner = 't1'");
        await client.end();
        console.log(JSON.stringify(rows[0]));`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, embedded.url], {
        cwd: findProjectRoot(),
        timeout: 20_000,
      });
      assert.deepEqual(JSON.parse(stdout), { c: 5 });
    } finally {
      held.forEach((client) => client.release());
    }
  });

  it('refuses connections beyond maxConnections with a proper error', async () => {
    const small = await EmbeddedPostgres.start({ maxConnections: 1, loadDataDir: await embedded.dump() });
    const first = new pg.Client({ connectionString: small.url });
    const second = new pg.Client({ connectionString: small.url });
    try {
      await first.connect();
      await assert.rejects(second.connect(), /too many clients/);
      assert.deepEqual((await first.query('SELECT 1 AS x')).rows, [{ x: 1 }]);
    } finally {
      await first.end();
      await small.stop();
    }
  });

  it('works with @prisma/adapter-pg: concurrent interactive $transaction calls, one rolled back', async () => {
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: embedded.url, max: 10 }) });
    try {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          prisma.$transaction(async (tx) => {
            const created = await tx.workspace.create({ data: { slug: `tx-${i}`, name: `Tx ${i}` } });
            await sleep(5);
            const seen = await tx.workspace.count({ where: { slug: { startsWith: 'tx-' } } });
            if (i === 3) throw new Error('rolled back on purpose');
            return { id: created.id, seen };
          }),
        ),
      );
      outcomes.forEach((outcome, i) => assert.equal(outcome.status, i === 3 ? 'rejected' : 'fulfilled'));
      const slugs = (await prisma.workspace.findMany({ where: { slug: { startsWith: 'tx-' } }, orderBy: { slug: 'asc' } })).map(
        (w) => w.slug,
      );
      assert.deepEqual(slugs, ['tx-0', 'tx-1', 'tx-2', 'tx-4', 'tx-5']);
      const plain = await Promise.all(Array.from({ length: 20 }, (_, i) => prisma.workspace.count({ where: { slug: `tx-${i % 6}` } })));
      assert.deepEqual(
        plain,
        Array.from({ length: 20 }, (_, i) => (i % 6 === 3 ? 0 : 1)),
      );
    } finally {
      await prisma.$disconnect();
    }
  });

  it('documents the limit: awaiting a query outside an open transaction, from inside it, waits for its timeout', async () => {
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: embedded.url, max: 10 }) });
    try {
      const started = Date.now();
      await assert.rejects(
        prisma.$transaction(
          async (tx) => {
            await tx.workspace.count();
            await prisma.workspace.count(); // another connection: blocked until the transaction ends
            await tx.workspace.count();
          },
          { timeout: 1_000 },
        ),
      );
      assert.ok(Date.now() - started >= 1_000);
      assert.equal(typeof (await prisma.workspace.count()), 'number', 'the database is usable afterwards');
    } finally {
      await prisma.$disconnect();
    }
  });

  it('dump() captures the state for another in-memory instance', async () => {
    const copy = await EmbeddedPostgres.start({ loadDataDir: await embedded.dump() });
    try {
      const client = new pg.Client({ connectionString: copy.url });
      await client.connect();
      const { rows } = await client.query(`SELECT count(*)::int AS c FROM items WHERE owner = 't2'`);
      await client.end();
      assert.deepEqual(rows, [{ c: 5 }]);
    } finally {
      await copy.stop();
    }
  });
});

describe('findRunningEmbedded', () => {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-pg-'));
  const dataDir = join(dir, 'pglite');
  after(() => rmSync(dir, { recursive: true, force: true }));
  const announce = (state: object) => writeFileSync(join(dir, STATE_FILE_NAME), JSON.stringify({ dataDir, ready: true, ...state }));

  it('is undefined without an announcement file', async () => {
    assert.equal(await findRunningEmbedded(dataDir), undefined);
  });

  it('ignores a stale file whose process is gone', async () => {
    announce({ pid: 2 ** 22 + 12345, port: 1, url: 'postgresql://postgres@127.0.0.1:1/postgres' });
    assert.equal(await findRunningEmbedded(dataDir), undefined);
  });

  it('ignores a file whose process lives but whose port is closed', async () => {
    announce({ pid: process.pid, port: 1, url: 'postgresql://postgres@127.0.0.1:1/postgres' });
    assert.equal(await findRunningEmbedded(dataDir), undefined);
  });

  it('ignores a file written for another data directory', async () => {
    announce({ pid: process.pid, dataDir: join(dir, 'other'), port: 1, url: 'postgresql://postgres@127.0.0.1:1/postgres' });
    assert.equal(await findRunningEmbedded(dataDir), undefined);
  });
});
