import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { EmbeddedPostgres } from './embedded-postgres.js';
import { describeApplied, findProjectRoot, migrationsUpToDate, redactDatabaseUrl, runMigrations } from './migrations.js';

/** DATABASE_URL as the run started (other test files may change it later): real server, else PGlite. */
const SERVER_URL = process.env.DATABASE_URL || undefined;

/** An empty database of its own: on the real server when there is one, else an in-memory PGlite. */
async function emptyDatabase(): Promise<{ url: string; close(): Promise<void> }> {
  if (!SERVER_URL) {
    const embedded = await EmbeddedPostgres.start();
    return { url: embedded.url, close: () => embedded.stop() };
  }
  // run-tests.mjs drops mcp_test_<pid>_* databases left behind by runs that are gone.
  const name = `mcp_test_${process.pid}_m${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: SERVER_URL });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), close: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** A project root of its own whose prisma/migrations holds `scripts` (name → SQL). */
function projectWith(scripts: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'migrations-spec-'));
  for (const [name, sql] of Object.entries(scripts)) {
    mkdirSync(join(root, 'prisma', 'migrations', name), { recursive: true });
    writeFileSync(join(root, 'prisma', 'migrations', name, 'migration.sql'), sql);
  }
  writeFileSync(join(root, 'prisma', 'migrations', 'migration_lock.toml'), 'provider = "postgresql"\n');
  return root;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('runMigrations', () => {
  it('finds the project root and the Prisma CLI from the compiled file location', () => {
    const root = findProjectRoot();
    assert.ok(existsSync(join(root, 'prisma', 'schema', 'billing.prisma')));
    assert.ok(existsSync(join(root, 'scripts', 'migrate-deploy.mjs')));
    assert.ok(existsSync(createRequire(join(root, 'package.json')).resolve('prisma/build/index.js')));
  });

  it('throws with the cause when the database cannot be reached, without the password', async () => {
    await assert.rejects(runMigrations('postgresql://postgres:secret@127.0.0.1:1/nowhere'), (error: Error) => {
      assert.match(error.message, /^Migrations failed for postgresql:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/nowhere: .*ECONNREFUSED/);
      assert.doesNotMatch(error.message, /secret/);
      return true;
    });
  });

  it('does not call an unreachable database up to date', async () => {
    assert.equal(await migrationsUpToDate('postgresql://postgres@127.0.0.1:1/nowhere'), false);
  });

  it('redacts passwords in URLs', () => {
    assert.equal(redactDatabaseUrl('postgresql://u:p@h:1/d'), 'postgresql://u:***@h:1/d');
    assert.equal(redactDatabaseUrl('not a url'), '<invalid database URL>');
  });
});

describe(`runMigrations keeps Prisma's bookkeeping (${SERVER_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let database: { url: string; close(): Promise<void> };
  const roots: string[] = [];
  before(async () => {
    database = await emptyDatabase();
  });
  after(async () => {
    await database?.close();
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it("applies the project's migrations once, recorded as Prisma records them", async () => {
    const root = findProjectRoot();
    assert.equal(await migrationsUpToDate(database.url, root), false);
    const lines: string[] = [];
    const applied = await runMigrations(database.url, { log: (line) => lines.push(line) });
    assert.ok(lines.includes('All migrations have been successfully applied.'), lines.join('\n'));
    // The names, for the boot log: every migration folder, in the order applied.
    const folders = readdirSync(join(root, 'prisma', 'migrations'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    assert.deepEqual(applied, folders);
    assert.equal(describeApplied(applied), `${folders.length} migrations applied: ${folders.join(', ')}`);
    assert.equal(await migrationsUpToDate(database.url, root), true);

    // Prisma's table, column for column (what its schema engine creates on PostgreSQL).
    const columns = await query<{ column_name: string; data_type: string; is_nullable: string }>(
      database.url,
      `SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    assert.deepEqual(
      columns.map((c) => `${c.column_name} ${c.data_type} ${c.is_nullable}`),
      [
        'id character varying NO',
        'checksum character varying NO',
        'finished_at timestamp with time zone YES',
        'migration_name character varying NO',
        'logs text YES',
        'rolled_back_at timestamp with time zone YES',
        'started_at timestamp with time zone NO',
        'applied_steps_count integer NO',
      ],
    );
    const rows = await query<{ migration_name: string; checksum: string; done: boolean; applied_steps_count: number; logs: null }>(
      database.url,
      `SELECT migration_name, checksum, finished_at >= started_at AS done, applied_steps_count, logs FROM _prisma_migrations ORDER BY migration_name`,
    );
    const dir = join(root, 'prisma', 'migrations');
    assert.ok(rows.length >= 3);
    for (const row of rows) {
      assert.equal(row.checksum, sha256(readFileSync(join(dir, row.migration_name, 'migration.sql'), 'utf8')));
      assert.deepEqual([row.done, row.applied_steps_count, row.logs], [true, 1, null]);
    }

    const again: string[] = [];
    assert.deepEqual(await runMigrations(database.url, { log: (line) => again.push(line) }), []);
    assert.ok(again.includes('No pending migrations to apply.'), again.join('\n'));
    assert.equal(describeApplied([]), 'No pending migration');
    assert.equal((await query(database.url, 'SELECT 1 FROM _prisma_migrations')).length, rows.length);
  });

  it('records a failed migration with its error, applies nothing after it, and stops later runs until resolved', async () => {
    const other = await emptyDatabase();
    try {
      const root = projectWith({
        '1_ok': 'CREATE TABLE a (id int);',
        '2_broken': 'CREATE TABLE b (id int);\nSELECT * FROM missing_table;',
        '3_later': 'CREATE TABLE c (id int);',
      });
      roots.push(root);
      await assert.rejects(runMigrations(other.url, { cwd: root }), /Migration `2_broken` failed: .*missing_table/);
      const rows = await query<{ migration_name: string; finished: boolean; logs: string | null }>(
        other.url,
        `SELECT migration_name, finished_at IS NOT NULL AS finished, logs FROM _prisma_migrations ORDER BY migration_name`,
      );
      assert.deepEqual(
        rows.map((row) => [row.migration_name, row.finished]),
        [
          ['1_ok', true],
          ['2_broken', false],
        ],
      );
      assert.match(rows[1].logs ?? '', /missing_table/);
      // The script ran as one transaction: its first statement was rolled back with it.
      assert.deepEqual(await query(other.url, `SELECT to_regclass('b') AS b, to_regclass('c') AS c`), [{ b: null, c: null }]);
      await assert.rejects(runMigrations(other.url, { cwd: root }), /`2_broken` failed earlier \(Prisma P3009\)/);
      assert.equal(await migrationsUpToDate(other.url, root), false);
    } finally {
      await other.close();
    }
  });

  it('refuses a database that has tables but no migration history (Prisma P3005)', async () => {
    const other = await emptyDatabase();
    try {
      await query(other.url, 'CREATE TABLE existing (id int)');
      const root = projectWith({ '1_ok': 'CREATE TABLE a (id int);' });
      roots.push(root);
      await assert.rejects(runMigrations(other.url, { cwd: root }), /not empty .*P3005/);
      assert.deepEqual(await query(other.url, `SELECT to_regclass('_prisma_migrations') AS t`), [{ t: null }]);
    } finally {
      await other.close();
    }
  });
});
