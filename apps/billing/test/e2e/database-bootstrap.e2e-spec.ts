import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { STATE_FILE_NAME } from '../../src/database/embedded-postgres.js';
import { findProjectRoot } from '../../src/database/migrations.js';
import { prepareDatabase, type PreparedDatabase } from '../../src/database/prepare-database.js';
import { createTestDatabase, queryRows } from '../support/test-database.js';

const portIsOpen = (url: string) =>
  queryRows(url, 'SELECT 1').then(
    () => true,
    () => false,
  );

describe('prepareDatabase without a URL (DATABASE_URL unset): the embedded PostgreSQL on a data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'prepare-db-'));
  const dataDir = join(dir, 'pglite');
  const stateFile = join(dir, STATE_FILE_NAME);
  const logs: string[] = [];
  let first: PreparedDatabase;

  after(async () => {
    await first?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts PGlite, applies the migrations, answers its URL (the environment left alone) and announces itself', async (t) => {
    const environmentBefore = process.env.DATABASE_URL;
    first = await prepareDatabase({ dataDir, logger: (line) => logs.push(line) });
    logs.forEach((line) => t.diagnostic(line));
    assert.equal(first.embedded, true);
    assert.equal(first.source, 'started');
    assert.equal(process.env.DATABASE_URL, environmentBefore);
    assert.ok(first.timings.startMs > 0 && first.timings.migrateMs > 0);

    const tables = await queryRows<{ table_name: string }>(
      first.url,
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
    );
    const names = tables.map((row) => row.table_name);
    for (const table of ['_prisma_migrations', 'access_tokens', 'mcp_audit_events', 'users', 'workspaces']) {
      assert.ok(names.includes(table), `table ${table} exists (got ${names.join(', ')})`);
    }
    const state = JSON.parse(readFileSync(stateFile, 'utf8'));
    assert.equal(state.pid, process.pid);
    assert.equal(state.url, first.url);
    assert.equal(state.ready, true);
    assert.ok(state.port > 0);

    await queryRows(first.url, `INSERT INTO workspaces (id, slug, name) VALUES (gen_random_uuid(), 'persisted', 'Persisted')`);
  });

  it('is reused by a second prepareDatabase on the same data directory, in this process and in another', async () => {
    const second = await prepareDatabase({ dataDir });
    assert.equal(second.source, 'reused');
    assert.equal(second.url, first.url);
    assert.equal(second.timings.migrateMs, 0, 'the owner migrated it already');
    await second.close();
    assert.ok(await portIsOpen(first.url), "closing a reused database leaves the owner's server running");

    const module = fileURLToPath(new URL('../../src/database/prepare-database.js', import.meta.url));
    const script = `
      import { prepareDatabase } from ${JSON.stringify(module)};
      const db = await prepareDatabase({ dataDir: process.argv[1] });
      console.log(JSON.stringify({ url: db.url, source: db.source }));
      await db.close();`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, dataDir], {
      cwd: findProjectRoot(),
      timeout: 30_000,
    });
    assert.deepEqual(JSON.parse(stdout), { url: first.url, source: 'reused' });
    assert.deepEqual(await queryRows(first.url, `SELECT name FROM workspaces WHERE slug = 'persisted'`), [{ name: 'Persisted' }]);
  });

  it('stops on close() and removes the announcement', async () => {
    await first.close();
    assert.equal(existsSync(stateFile), false);
    assert.equal(await portIsOpen(first.url), false);
  });

  it('starts again over a stale announcement, with the data persisted', async (t) => {
    writeFileSync(stateFile, JSON.stringify({ pid: 2 ** 22 + 4321, dataDir, ready: true, port: 1, url: 'postgresql://x@127.0.0.1:1/x' }));
    const lines: string[] = [];
    const again = await prepareDatabase({ dataDir, logger: (line) => lines.push(line) });
    try {
      lines.forEach((line) => t.diagnostic(line));
      assert.equal(again.source, 'started');
      assert.ok(
        lines.some((line) => line.startsWith('Migrations up to date')),
        'the CLI is skipped when nothing is pending',
      );
      assert.deepEqual(await queryRows(again.url, `SELECT name FROM workspaces WHERE slug = 'persisted'`), [{ name: 'Persisted' }]);
      assert.equal(JSON.parse(readFileSync(stateFile, 'utf8')).pid, process.pid);
    } finally {
      await again.close();
    }
  });
});

describe('prepareDatabase with a URL (DATABASE_URL set)', () => {
  it('uses that URL as is, without starting anything or migrating', async () => {
    const url = 'postgresql://postgres@127.0.0.1:1/unreachable';
    const db = await prepareDatabase({ url, dataDir: join(tmpdir(), 'never-created') });
    assert.deepEqual([db.url, db.embedded, db.source, db.timings.migrateMs], [url, false, 'env', 0]);
    await db.close();
  });
});

describe('createTestDatabase (DATABASE_URL set: a copy of the template database; unset: an embedded PGlite)', () => {
  it('gives each caller its own migrated database, and close() removes it', async (t) => {
    const started = performance.now();
    const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    t.diagnostic(
      `two test databases in ${Math.round(performance.now() - started)} ms (${process.env.DATABASE_URL ? 'server' : 'embedded'})`,
    );
    try {
      assert.notEqual(a.url, b.url);
      for (const db of [a, b]) {
        const [{ count }] = await queryRows<{ count: number }>(
          db.url,
          'SELECT count(*)::int AS count FROM _prisma_migrations WHERE finished_at IS NOT NULL',
        );
        assert.ok(count >= 1, 'migrated');
        assert.deepEqual(await queryRows(db.url, 'SELECT * FROM workspaces'), [], 'and empty');
      }
      await queryRows(a.url, `INSERT INTO workspaces (id, slug, name) VALUES (gen_random_uuid(), 'only-in-a', 'A')`);
      assert.deepEqual(await queryRows(b.url, `SELECT slug FROM workspaces`), []);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    assert.equal(await portIsOpen(a.url), false, 'gone after close()');
  });
});
