#!/usr/bin/env node
// `npm run start:dev`: `nest start --watch` beside an embedded database that outlives its restarts.
// The database starts (and is migrated) once, in this process; every server the watcher restarts
// after a change finds it through `.data/embedded-postgres.json` and reuses it instead of starting
// PGlite and checking the migrations again (about two seconds of each restart). With DATABASE_URL
// set, the watcher runs alone against that server. After adding a migration, run it again.
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
  database = await prepareDatabase({ logger: (line) => console.log(`[dev database] ${line}`) });
  // The servers find the running database by its data directory: a DATABASE_URL would make them
  // treat it as an external server (no embedded banner, no demo defaults of the embedded database).
  delete process.env.DATABASE_URL;
}

// Its own process group, so that a signal stops the watcher and the server it runs together.
const nestCli = createRequire(join(root, 'package.json')).resolve('@nestjs/cli/bin/nest.js');
const watcher = spawn(process.execPath, [nestCli, 'start', '--watch'], {
  stdio: 'inherit',
  detached: true,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.kill(-watcher.pid, signal));
watcher.on('exit', async (code) => {
  await database?.close();
  process.exit(code ?? 0);
});
