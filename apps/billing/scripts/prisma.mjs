#!/usr/bin/env node
// Runs Prisma's CLI offline where it can: `node scripts/prisma.mjs <args>`.
// - `migrate deploy` applies prisma/migrations with scripts/migrate-deploy.mjs (Prisma's own
//   bookkeeping, no CLI): Prisma 7's CLI migrates only through its native schema engine, which
//   it downloads at first use, and the download host is unreachable here and on CI.
// - `generate`, `validate` and `format` never run that engine, but the CLI still insists on
//   finding one: unless PRISMA_SCHEMA_ENGINE_BINARY is set, it gets a placeholder that explains
//   itself and fails if it is ever run (written under node_modules/.cache, never committed).
// - anything else goes to Prisma's CLI as is (it downloads its engine where it can).
// With DATABASE_URL unset, prisma.config.ts uses a local placeholder URL: these commands never connect.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deployMigrations } from './migrate-deploy.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

if (args[0] === 'migrate' && args[1] === 'deploy') {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is not set: which database should be migrated?');
    process.exit(1);
  }
  try {
    await deployMigrations(url, { root, log: (line) => console.log(line) });
    process.exit(0);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}

const env = { ...process.env, CHECKPOINT_DISABLE: process.env.CHECKPOINT_DISABLE ?? '1' };
if (['generate', 'validate', 'format'].includes(args[0]) && !env.PRISMA_SCHEMA_ENGINE_BINARY) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = schemaEnginePlaceholder();
}

const cli = createRequire(join(root, 'package.json')).resolve('prisma/build/index.js');
const child = spawn(process.execPath, [cli, ...args], { cwd: root, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

function schemaEnginePlaceholder() {
  const file = join(root, 'node_modules', '.cache', 'prisma-offline', 'schema-engine');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      '#!/bin/sh\necho "Placeholder for Prisma\'s native schema engine (see scripts/prisma.mjs): this command needs the real one." >&2\nexit 1\n',
    );
    chmodSync(file, 0o755);
  }
  return file;
}
