// Node module hooks that run the TypeScript sources directly: each .ts file is transpiled by SWC
// when it is first imported, with the decorator metadata Nest's injection and class-validator
// need (esbuild-based loaders such as tsx drop it). No type checking here: `npm run typecheck`
// (tsc) does that, and `npm test` runs it before the suite.
//
// The sources import each other as `./x.js` (what tsc's nodenext resolution wants); the resolve
// hook maps such a file to `./x.ts` when only the TypeScript file exists (also for a script a test
// runs with `node -e`, which imports a source by its would-be compiled path).
import { transformSync, version } from '@swc/core';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Mirrors tsconfig.json: target ES2023, legacy decorators with emitted metadata, define semantics for fields. */
const SWC_OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    target: 'es2022',
    keepClassNames: true,
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
  inlineSourcesContent: true,
};

const isTypeScript = (url) => url.startsWith('file:') && url.endsWith('.ts') && !url.endsWith('.d.ts');

export async function resolve(specifier, context, nextResolve) {
  const isPath = specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('file:');
  // No parent: the entry point (`node src/main.js`).
  const base = context.parentURL ?? pathToFileURL(`${process.cwd()}/`).href;
  if (isPath && specifier.endsWith('.js') && base.startsWith('file:')) {
    const target = new URL(specifier, base);
    if (!existsSync(target)) {
      const typescript = new URL(`${target.href.slice(0, -3)}.ts`);
      if (existsSync(typescript)) return { url: typescript.href, format: 'module', shortCircuit: true };
    }
  }
  return nextResolve(specifier, context);
}

// Transpiled files are kept by content (source, path, options, SWC version): a restart transpiles
// only the files that changed since the last one.
const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/swc-hooks/', import.meta.url));
const OPTIONS_KEY = `${version}\n${JSON.stringify(SWC_OPTIONS)}`;
let cacheReady = false;

export async function load(url, context, nextLoad) {
  if (!isTypeScript(url)) return nextLoad(url, context);
  const filename = fileURLToPath(url);
  const source = readFileSync(filename, 'utf8');
  const cached = join(
    CACHE_DIR,
    `${createHash('sha256').update(OPTIONS_KEY).update(filename).update('\0').update(source).digest('hex')}.js`,
  );
  if (existsSync(cached)) return { format: 'module', source: readFileSync(cached, 'utf8'), shortCircuit: true };
  const { code } = transformSync(source, { ...SWC_OPTIONS, filename });
  store(cached, code);
  return { format: 'module', source: code, shortCircuit: true };
}

/** Best effort: a read-only or full disk only costs the next start a transpile. */
function store(path, code) {
  try {
    if (!cacheReady) mkdirSync(CACHE_DIR, { recursive: true });
    cacheReady = true;
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, code);
    renameSync(temporary, path);
  } catch {
    // not cached
  }
}
