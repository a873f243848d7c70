#!/usr/bin/env node
// Compiles sources and tests with tsc (esbuild-based runners drop the decorator metadata Nest
// and class-validator need), prepares the migrated test database state once, runs the tests with
// Node's test runner, and ends with the summary line CI reads: "N passed, N failed".
//
//   node scripts/run-tests.mjs [path filter]
//
// Test databases (see test/support/test-database.ts), prepared here once per run:
// - DATABASE_URL set: a template database `mcp_test_template_<pid>` on that server, migrated with
//   scripts/migrate-deploy.mjs (what `npm run db:migrate` runs); every test database is copied from it and the template is dropped at
//   the end. Its name is per run because CI and developers share one PostgreSQL server.
//   Databases `mcp_test_*` left by runs whose process is gone are dropped (loopback servers only).
// - DATABASE_URL unset: a migrated PGlite data directory snapshot (a tarball), cached in
//   node_modules/.cache/mcp-test-db/ under a hash of prisma/migrations, their runner and the PGlite
//   and Prisma versions; every test file loads it into an in-memory PGlite. (Prepared in both modes: the
//   embedded server's own tests use it.)
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
// TEST_OUT_DIR lets two runs (or a run and the conformance script) share a checkout.
const outDir = process.env.TEST_OUT_DIR ?? '.test-dist';
const summary = (passed, failed) => console.log(`${passed} passed, ${failed} failed`);

rmSync(outDir, { recursive: true, force: true });
const tsc = spawnSync('npx', ['tsc', '-p', 'tsconfig.json', '--outDir', outDir], { stdio: 'inherit' });
if (tsc.status !== 0) {
  summary(0, 1);
  process.exit(1);
}

const filter = process.argv[2];
const isTest = (name) => name.endsWith('.spec.js') || name.endsWith('.e2e-spec.js');
function collect(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return collect(path);
    return isTest(name) && (!filter || path.includes(filter)) ? [path] : [];
  });
}
const files = [...collect(join(outDir, 'src')), ...collect(join(outDir, 'test'))].sort();
if (!files.length) {
  // `node --test` without files would discover files on its own (and start test servers as tests).
  console.error(`No test file matches "${filter}"`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const compiled = (path) => import(pathToFileURL(resolve(outDir, path)).href);
let database;
try {
  // The snapshot also serves the embedded server's own unit tests when DATABASE_URL is set.
  const snapshot = await prepareSnapshot();
  const template = process.env.DATABASE_URL ? await prepareTemplate(process.env.DATABASE_URL) : undefined;
  database = { env: { ...snapshot.env, ...template?.env }, teardown: template?.teardown ?? (async () => undefined) };
} catch (error) {
  console.error(`Test database setup failed: ${error.stack ?? error}`);
  summary(0, 1);
  process.exit(1);
}

// A test that hangs fails after 5 minutes, and the whole run is cut after TEST_RUN_TIMEOUT_MINUTES
// (default 45): CI gets a failure it can read instead of a run that never ends.
const child = spawn(process.execPath, ['--test', '--test-reporter=spec', '--test-timeout=300000', ...files], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, NODE_ENV: 'test', ...database.env },
  // Its own process group, so the watchdog stops the test files' processes too.
  detached: true,
});
const runLimitMs = Number(process.env.TEST_RUN_TIMEOUT_MINUTES ?? 45) * 60_000;
const watchdog = setTimeout(() => {
  console.error(`The test run exceeded ${runLimitMs / 60_000} minutes: stopping it (a test or a test file hangs).`);
  process.kill(-child.pid, 'SIGKILL');
}, runLimitMs);
watchdog.unref();
// Detached, the group no longer gets the terminal's Ctrl-C: pass it on.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.kill(-child.pid, signal));
let output = '';
child.stdout.on('data', (chunk) => {
  output += chunk;
  process.stdout.write(chunk);
});
child.on('close', async (code) => {
  try {
    await database.teardown();
  } catch (error) {
    console.error(`Test database teardown: ${error.message}`);
  }
  const count = (label) => Number(new RegExp(`ℹ ${label} (\\d+)`).exec(output)?.[1] ?? 0);
  const passed = count('pass');
  const failed = count('fail') + (code !== 0 && count('fail') === 0 ? 1 : 0);
  summary(passed, failed);
  process.exit(code ?? 1);
});

/** DATABASE_URL set: a migrated template database on that server, for this run only. */
async function prepareTemplate(serverUrl) {
  const { default: pg } = await import('pg');
  const { runMigrations } = await compiled('src/database/migrations.js');
  const admin = async (work) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const ident = (name) => `"${name.replaceAll('"', '""')}"`;
  const template = `mcp_test_template_${process.pid}`;
  const started = performance.now();

  await admin(async (client) => {
    await dropAbandoned(client, serverUrl, ident);
    await client.query(`DROP DATABASE IF EXISTS ${ident(template)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${ident(template)}`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${template}`;
  await runMigrations(url.toString());
  await admin(async (client) => {
    // No session may stay on a template while it is copied.
    await client.query(`ALTER DATABASE ${ident(template)} WITH ALLOW_CONNECTIONS false`);
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [template]);
  });
  console.log(`Test database template ${template} migrated in ${Math.round(performance.now() - started)} ms`);

  return {
    env: { TEST_DATABASE_TEMPLATE: template },
    teardown: () =>
      admin(async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${ident(template)} WITH (FORCE)`);
        await dropAbandoned(client, serverUrl, ident);
      }),
  };
}

/** Drops mcp_test_* databases whose creating process (pid in the name) is gone. */
async function dropAbandoned(client, serverUrl, ident) {
  const host = new URL(serverUrl).hostname.replace(/^\[|\]$/g, '');
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) return; // pids are only meaningful here
  const { rows } = await client.query(String.raw`SELECT datname FROM pg_database WHERE datname ~ '^mcp_test_(template_)?\d+'`);
  for (const { datname } of rows) {
    const pid = Number(/^mcp_test_(?:template_)?(\d+)/.exec(datname)[1]);
    if (pid !== process.pid && !isAlive(pid)) {
      await client.query(`DROP DATABASE IF EXISTS ${ident(datname)} WITH (FORCE)`).catch(() => undefined);
    }
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** DATABASE_URL unset: a snapshot of a migrated PGlite, built once per migrations state. */
async function prepareSnapshot() {
  const migrationsDir = join(root, 'prisma', 'migrations');
  const hash = createHash('sha256');
  for (const pkg of ['@electric-sql/pglite', 'prisma']) {
    hash.update(`${pkg}@${JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version}\n`);
  }
  const walk = (dir) =>
    readdirSync(dir)
      .sort()
      .forEach((name) => {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) return walk(path);
        hash.update(`${path.slice(migrationsDir.length)}\n`).update(readFileSync(path));
      });
  walk(migrationsDir);
  // The runner that applies them (scripts/migrate-deploy.mjs) shapes the snapshot too.
  hash.update(readFileSync(join(root, 'scripts', 'migrate-deploy.mjs')));
  const cacheDir = join(root, 'node_modules', '.cache', 'mcp-test-db');
  const snapshot = join(cacheDir, `pglite-${hash.digest('hex').slice(0, 16)}.tar`);

  if (!existsSync(snapshot)) {
    const started = performance.now();
    const { EmbeddedPostgres } = await compiled('src/database/embedded-postgres.js');
    const { runMigrations } = await compiled('src/database/migrations.js');
    const embedded = await EmbeddedPostgres.start();
    try {
      await runMigrations(embedded.url);
      const blob = await embedded.dump();
      mkdirSync(cacheDir, { recursive: true });
      // Older snapshots (other migration states), unless a concurrent run may still be using them.
      for (const old of readdirSync(cacheDir)) {
        const path = join(cacheDir, old);
        if (Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { force: true });
      }
      const temporary = `${snapshot}.${process.pid}.tmp`;
      writeFileSync(temporary, Buffer.from(await blob.arrayBuffer()));
      renameSync(temporary, snapshot);
    } finally {
      await embedded.stop();
    }
    console.log(`Migrated PGlite snapshot built in ${Math.round(performance.now() - started)} ms`);
  }
  return { env: { TEST_PGLITE_SNAPSHOT: snapshot }, teardown: async () => undefined };
}
