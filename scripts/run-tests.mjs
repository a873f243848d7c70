#!/usr/bin/env node
// Compiles sources and tests with tsc (esbuild-based runners drop the decorator metadata Nest
// and class-validator need), runs them with Node's test runner, and ends with the summary line
// CI reads: "N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const outDir = '.test-dist';
rmSync(outDir, { recursive: true, force: true });
const tsc = spawnSync('npx', ['tsc', '-p', 'tsconfig.json', '--outDir', outDir], { stdio: 'inherit' });
if (tsc.status !== 0) {
  console.log('0 passed, 1 failed');
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

const child = spawn(process.execPath, ['--test', '--test-reporter=spec', ...files], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, NODE_ENV: 'test' },
});
let output = '';
child.stdout.on('data', (chunk) => {
  output += chunk;
  process.stdout.write(chunk);
});
child.on('close', (code) => {
  const count = (label) => Number(new RegExp(`ℹ ${label} (\\d+)`).exec(output)?.[1] ?? 0);
  const passed = count('pass');
  const failed = count('fail') + (code !== 0 && count('fail') === 0 ? 1 : 0);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code ?? 1);
});
