// The billing app's non-code files (skill folders, app views' HTML) that its module code reads at boot:
// `nest build` copies them into dist/ by apps/billing/nest-cli.json's `assets`; the bench compiles
// with tsc, which copies nothing, so the bench copies the same list into .bench-dist/ after tsc.
// Used by scripts/bench.mjs and bench/stream-soak.mjs; after compiling a checkout by hand for
// ab-compare (`tsc -p bench/tsconfig.json`), run `node bench/copy-app-assets.mjs` in it.
import { cpSync, globSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Copies each file nest-cli.json's `assets` names from apps/billing/src into <outDir>/apps/billing/src; returns how many. */
export function copyAppAssets(root, outDir = join(root, '.bench-dist')) {
  const app = join(root, 'apps', 'billing');
  const cli = JSON.parse(readFileSync(join(app, 'nest-cli.json'), 'utf8'));
  const source = join(app, cli.sourceRoot ?? 'src');
  const target = join(outDir, 'apps', 'billing', cli.sourceRoot ?? 'src');
  let copied = 0;
  for (const asset of cli.compilerOptions?.assets ?? []) {
    const pattern = typeof asset === 'string' ? asset : asset.include;
    for (const file of globSync(pattern, { cwd: source, withFileTypes: true })) {
      if (!file.isFile()) continue;
      const from = join(file.parentPath, file.name);
      cpSync(from, join(target, from.slice(source.length)));
      copied++;
    }
  }
  return copied;
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  // Run from the checkout whose .bench-dist/ it fills.
  console.log(`copied ${copyAppAssets(process.cwd())} asset file(s) into .bench-dist/`);
}
