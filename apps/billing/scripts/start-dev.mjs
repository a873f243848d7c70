#!/usr/bin/env node
// `npm run start:dev`: `nest start --watch` beside an embedded database that outlives its restarts.
// The database starts (and is migrated) once, in this process; every server the watcher restarts
// after a change finds it through `.data/embedded-postgres.json` and reuses it instead of starting
// PGlite and checking the migrations again (about two seconds of each restart). With DATABASE_URL
// set, the watcher runs alone against that server. After adding a migration, run it again: the
// log names the migrations it applied.
// The demo admin's password and the demo token are kept in `.data/demo-access.json` (DEMO_ACCESS_FILE,
// read by src/demo/demo-mode.ts) and reused by every restart while the token is valid: a save does
// not revoke the token a connected client uses, nor print a new password.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

let database;
if (!process.env.DATABASE_URL) {
  // The repository's SWC hooks (scripts/swc at the workspace root) run the TypeScript sources.
  await import(pathToFileURL(join(root, '..', '..', 'scripts', 'swc', 'register.mjs')).href);
  const { prepareDatabase } = await import(pathToFileURL(join(root, 'src', 'database', 'prepare-database.ts')).href);
  const { describeApplied, runMigrations } = await import(pathToFileURL(join(root, 'src', 'database', 'migrations.ts')).href);
  const log = (line) => console.log(`[dev database] ${line}`);
  // Migrated here rather than inside prepareDatabase, so that the log says which migrations ran.
  database = await prepareDatabase({ logger: log, migrate: false });
  if (database.source === 'started') {
    const started = performance.now();
    try {
      const applied = await runMigrations(database.url, { skipIfUpToDate: true });
      log(`${describeApplied(applied)} (${Math.round(performance.now() - started)} ms)`);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  // The servers find the running database by its data directory: a DATABASE_URL would make them
  // treat it as an external server (no embedded banner, no demo defaults of the embedded database).
  delete process.env.DATABASE_URL;
}

// Its own process group, so that a signal stops the watcher and the server it runs together.
const nestCli = createRequire(join(root, 'package.json')).resolve('@nestjs/cli/bin/nest.js');
const watcher = spawn(process.execPath, [nestCli, 'start', '--watch'], {
  stdio: 'inherit',
  detached: true,
  env: { ...process.env, DEMO_ACCESS_FILE: process.env.DEMO_ACCESS_FILE || join(root, '.data', 'demo-access.json') },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.kill(-watcher.pid, signal));
watcher.on('exit', async (code) => {
  await database?.close();
  process.exit(code ?? 0);
});
