#!/usr/bin/env node
// Runs the Prisma CLI: `node scripts/prisma.mjs <args>`, e.g. `generate`, `migrate deploy`.
// With DATABASE_URL unset it passes a placeholder: the CLI needs one to use its WebAssembly
// engine through prisma.config.ts (without it, it tries to download a native engine), and
// commands such as `generate` never connect.
// `migrate deploy` ends as soon as it reports success: Prisma 6.19's wasm engine otherwise keeps
// the process alive ~10 s after the work is done.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = createRequire(resolve(root, 'package.json')).resolve('prisma/build/index.js');
const args = process.argv.slice(2);
const env = {
  ...process.env,
  DATABASE_URL: process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres',
  CHECKPOINT_DISABLE: process.env.CHECKPOINT_DISABLE ?? '1',
};
const deploy = args[0] === 'migrate' && args[1] === 'deploy';
const done = /^(All migrations have been successfully applied\.|No pending migrations to apply\.)\s*$/m;

const child = spawn(process.execPath, [cli, ...args], { cwd: root, env, stdio: ['inherit', deploy ? 'pipe' : 'inherit', 'inherit'] });
let stdout = '';
let succeeded = false;
child.stdout?.on('data', (chunk) => {
  process.stdout.write(chunk);
  stdout += chunk;
  if (!succeeded && done.test(stdout)) {
    succeeded = true;
    setTimeout(() => child.exitCode === null && child.kill('SIGTERM'), 100).unref();
  }
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('close', (code, signal) => process.exit(succeeded ? 0 : (code ?? (signal ? 1 : 0))));
