#!/usr/bin/env node
// Builds the MCP layer (src/mcp) into the installable package its manifest describes
// (src/mcp/package.json) and packs it with `npm pack`: the tarball an existing Nest app installs.
//
//   node scripts/pack-mcp.mjs [output folder]     (default .mcp-package/)
//
// Prints the tarball's absolute path on the last line of stdout.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const layer = join(root, 'src', 'mcp');
const out = resolve(process.argv[2] ?? join(root, '.mcp-package'));

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) {
    process.stderr.write(result.stdout ?? '');
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status})`);
  }
  return result.stdout;
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
// The main checkout's TypeScript, run directly (npx would look for a package in the output folder).
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
run(process.execPath, [tsc, '-p', join(layer, 'tsconfig.package.json'), '--outDir', join(out, 'dist')], root);
copyFileSync(join(layer, 'package.json'), join(out, 'package.json'));
copyFileSync(join(layer, 'README.md'), join(out, 'README.md'));
const [packed] = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts'], out));
console.log(join(out, packed.filename));
