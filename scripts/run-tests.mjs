#!/usr/bin/env node
// Runs the tests of every workspace (packages/nest-mcp, packages/nest-mcp-prisma, packages/nest-mcp-admin, packages/nest-mcp-redis, apps/billing) with Node's test runner
// straight from the TypeScript sources (SWC transpiles each file as it is imported, keeping the
// decorator metadata Nest and class-validator need; see scripts/swc/), after preparing the
// migrated test database state of the billing app once. Imports of @nest-mcp/* resolve to the
// packages' sources (the "@nest-mcp/source" export condition), so nothing needs building first. The last line is the one
// CI reads, counted from the runner's own events (scripts/test-summary.reporter.mjs):
// "N passed, N failed, N skipped"; before it, the tests and suites that did not run, by reason.
//
//   npm test                      type-checks every workspace (npm run typecheck), then runs every test file
//   npm test -- <path substring>  runs the matching files only, without the type check (seconds)
//   npm test -- <a> <b> …         runs the files that match any of them
//
// TYPECHECK=1 type-checks a filtered run too; TYPECHECK=0 skips it in a full run.
//
// Test databases (see test/support/test-database.ts), prepared here once per run:
// - DATABASE_URL set: a template database `mcp_test_template_<pid>` on that server, migrated with
//   apps/billing/scripts/migrate-deploy.mjs (what `npm run db:migrate` runs); every test database is copied from it and the template is dropped at
//   the end. Its name is per run because CI and developers share one PostgreSQL server.
//   Databases `mcp_test_*` left by runs whose process is gone are dropped (loopback servers only).
// - DATABASE_URL unset: a migrated PGlite data directory snapshot (a tarball), cached in
//   node_modules/.cache/mcp-test-db/ under a hash of apps/billing/prisma/migrations, their runner and the PGlite
//   and Prisma versions; every test file loads it into an in-memory PGlite. (Prepared in both modes: the
//   embedded server's own tests use it.)
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
/** Where each workspace keeps its tests: unit specs beside the code, end-to-end tests under test/. */
const WORKSPACES = [
  'packages/nest-mcp',
  'packages/nest-mcp-prisma',
  'packages/nest-mcp-admin',
  'packages/nest-mcp-redis',
  'packages/nest-mcp-auth',
  'apps/billing',
];
const APP = 'apps/billing';
/** The export condition under which @nest-mcp/core resolves to its TypeScript sources. */
const SOURCE_CONDITION = '--conditions=@nest-mcp/source';
const summary = (passed, failed, skipped = 0) => console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
// This process imports TypeScript sources too (the migrations runner, the embedded database).
const registerHooks = join(root, 'scripts', 'swc', 'register.mjs');
await import(pathToFileURL(registerHooks).href);

/** Path substrings: a file runs when its path contains any of them (none: every file). */
const filters = process.argv.slice(2).filter((argument) => argument !== '');
const isTest = (name) => name.endsWith('.spec.ts') || name.endsWith('.e2e-spec.ts');
// A filter written for the compiled files (`foo.spec.js`) still finds `foo.spec.ts`.
const matchesFilter = (path, filter) => path.includes(filter) || path.replace(/\.ts$/, '.js').includes(filter);
const matches = (path) => !filters.length || filters.some((filter) => matchesFilter(path, filter));
function collect(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' || name === 'node_modules' ? [] : collect(path);
    return isTest(name) && matches(path) ? [path] : [];
  });
}
const files = WORKSPACES.flatMap((workspace) => [...collect(join(workspace, 'src')), ...collect(join(workspace, 'test'))]).sort();
const unmatched = filters.filter((filter) => !files.some((path) => matchesFilter(path, filter)));
if (!files.length || unmatched.length) {
  // `node --test` without files would discover files on its own (and start test servers as tests);
  // a filter that matches nothing is a typo the run would otherwise hide.
  console.error(
    unmatched.length ? `No test file matches ${unmatched.map((filter) => JSON.stringify(filter)).join(', ')}` : 'No test file found',
  );
  summary(0, 1);
  process.exit(1);
}

const typecheck = process.env.TYPECHECK ? process.env.TYPECHECK === '1' : !filters.length;
if (typecheck) {
  const started = performance.now();
  const tsc = (project) =>
    spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', project], { stdio: 'inherit' });
  if (WORKSPACES.map(tsc).some((result) => result.status !== 0)) {
    console.error('Type check failed (npm run typecheck): no test ran.');
    summary(0, 1);
    process.exit(1);
  }
  console.log(`Type check passed in ${Math.round(performance.now() - started)} ms`);
} else {
  console.log(`${files.length} test file(s), no type check (npm run typecheck, or TYPECHECK=1)`);
}

const source = (path) => import(pathToFileURL(resolve(root, path)).href);
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
const summaryDir = mkdtempSync(join(tmpdir(), 'mcp-test-summary-'));
const summaryFile = join(summaryDir, 'summary.txt');
const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
reporters.push(
  `--test-reporter=${pathToFileURL(join(root, 'scripts', 'test-summary.reporter.mjs')).href}`,
  `--test-reporter-destination=${summaryFile}`,
);
const child = spawn(process.execPath, ['--test', ...reporters, '--test-timeout=300000', ...files.map((file) => relative(root, file))], {
  stdio: ['ignore', 'inherit', 'inherit'],
  // NODE_OPTIONS: the test files, and every Node process they start (the server in app-process.ts,
  // `node -e` scripts), load TypeScript through the same hooks.
  env: {
    ...process.env,
    NODE_ENV: 'test',
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${SOURCE_CONDITION} --import=${pathToFileURL(registerHooks).href}`.trim(),
    ...database.env,
  },
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
child.on('close', async (code) => {
  try {
    await database.teardown();
  } catch (error) {
    console.error(`Test database teardown: ${error.message}`);
  }
  const report = existsSync(summaryFile) ? readFileSync(summaryFile, 'utf8') : '';
  const counted = /^(\d+) passed, (\d+) failed, (\d+) skipped$/m.exec(report);
  rmSync(summaryDir, { recursive: true, force: true });
  // What did not run (skipped suites and tests, by reason), just above the count.
  const notRun = counted ? report.slice(0, counted.index).trimEnd() : '';
  if (notRun) console.log(`\n${notRun}`);
  const passed = Number(counted?.[1] ?? 0);
  const failed = Number(counted?.[2] ?? 0);
  // A run that failed without a failed test (a file that did not load, the watchdog) still fails.
  summary(passed, failed + (code !== 0 && failed === 0 ? 1 : 0), Number(counted?.[3] ?? 0));
  process.exit(code ?? 1);
});

/** DATABASE_URL set: a migrated template database on that server, for this run only. */
async function prepareTemplate(serverUrl) {
  const { default: pg } = await import('pg');
  const { runMigrations } = await source(`${APP}/src/database/migrations.ts`);
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
  const migrationsDir = join(root, APP, 'prisma', 'migrations');
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
  // The runner that applies them (apps/billing/scripts/migrate-deploy.mjs) shapes the snapshot too.
  hash.update(readFileSync(join(root, APP, 'scripts', 'migrate-deploy.mjs')));
  const cacheDir = join(root, 'node_modules', '.cache', 'mcp-test-db');
  const snapshot = join(cacheDir, `pglite-${hash.digest('hex').slice(0, 16)}.tar`);

  if (!existsSync(snapshot)) {
    const started = performance.now();
    const { EmbeddedPostgres } = await source(`${APP}/src/database/embedded-postgres.ts`);
    const { runMigrations } = await source(`${APP}/src/database/migrations.ts`);
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
