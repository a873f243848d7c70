import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The boundaries the layout promises, checked on the sources (no linter needed): the MCP layer
 * builds into its own package, so it imports nothing from the app and only the packages its
 * manifest declares; the app reaches the layer through its public entry point only; lower app
 * layers do not import higher ones.
 */

// Compiled to <out>/test/architecture/: the sources are read from the repository itself.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const src = join(root, 'src');
const mcp = join(src, 'mcp');

interface ImportSite {
  file: string;
  specifier: string;
  /** Absolute path for a relative specifier. */
  target?: string;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): ImportSite[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((match) => {
    const specifier = match[1] ?? match[2];
    return { file, specifier, ...(specifier.startsWith('.') ? { target: resolve(dirname(file), specifier) } : {}) };
  });
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);
const show = (site: ImportSite) => `${relative(root, site.file)} imports '${site.specifier}'`;
const isSpec = (file: string) => /\.(e2e-)?spec\.ts$/.test(file);
const appFiles = sources(src).filter((file) => !inside(file, mcp));
const layerFiles = sources(mcp).filter((file) => !isSpec(file));

/** The top-level package name of a bare specifier (`@scope/name/sub` → `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

describe('import boundaries', () => {
  it('the MCP layer imports nothing outside src/mcp (specs may use test helpers)', () => {
    const outside = layerFiles.flatMap(importsOf).filter((site) => site.target && !inside(site.target, mcp));
    assert.deepEqual(outside.map(show), []);
  });

  it('the MCP layer imports only node: modules and packages its manifest (src/mcp/package.json) declares', () => {
    const manifest = JSON.parse(readFileSync(join(mcp, 'package.json'), 'utf8'));
    const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const undeclared = layerFiles
      .flatMap(importsOf)
      .filter((site) => !site.target && !site.specifier.startsWith('node:'))
      // `express` is only imported for its types, which come from `@types/express`.
      .filter((site) => !declared.has(packageOf(site.specifier)) && !declared.has(`@types/${packageOf(site.specifier)}`));
    assert.deepEqual(undeclared.map(show), []);
  });

  it('the app reaches the MCP layer through its entry point (src/mcp/index.ts) only', () => {
    const entry = join(mcp, 'index.js');
    const deep = appFiles.flatMap(importsOf).filter((site) => site.target && inside(site.target, mcp) && site.target !== entry);
    assert.deepEqual(deep.map(show), []);
  });

  it('lower app layers do not import higher ones (context ↛ database, database ↛ anything but context, common and config)', () => {
    const rules: Array<{ layer: string; mayImport: string[] }> = [
      { layer: 'context', mayImport: ['context', 'generated', 'identity', 'mcp'] },
      { layer: 'database', mayImport: ['database', 'context', 'common', 'config', 'generated'] },
      { layer: 'common', mayImport: ['common'] },
      // The environment is read by every layer: it imports nothing of the app.
      { layer: 'config', mayImport: ['config'] },
    ];
    const upward = rules.flatMap(({ layer, mayImport }) =>
      appFiles
        .filter((file) => inside(file, join(src, layer)) && !isSpec(file))
        .flatMap(importsOf)
        .filter(
          (site) => site.target && inside(site.target, src) && !mayImport.some((allowed) => inside(site.target!, join(src, allowed))),
        ),
    );
    assert.deepEqual(upward.map(show), []);
  });

  it('finds imports at all (the scan is not vacuous)', () => {
    const sites = appFiles.flatMap(importsOf);
    assert.ok(sites.some((site) => site.specifier === '../mcp/index.js'));
    assert.ok(layerFiles.flatMap(importsOf).some((site) => site.specifier === '@nestjs/common'));
  });
});
