import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The app's side of the layout, checked on the sources: it reaches the MCP layer as any
 * installing app does, through the package name (`@nest-mcp/core`, and `@nest-mcp/core/testing`
 * in tests), never a relative path into packages/; and lower app layers do not import higher ones.
 */
const app = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const src = join(app, 'src');
const repo = resolve(app, '..', '..');

interface ImportSite {
  file: string;
  specifier: string;
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
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => {
    const specifier = match[1] ?? match[2];
    return { file, specifier, ...(specifier.startsWith('.') ? { target: resolve(dirname(file), specifier) } : {}) };
  });
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);
const show = (site: ImportSite) => `${relative(repo, site.file)} imports '${site.specifier}'`;
const isSpec = (file: string) => /\.(e2e-)?spec\.ts$/.test(file);
const appFiles = [...sources(src), ...sources(join(app, 'test'))];

describe('app import boundaries', () => {
  it('the app and its tests reach the MCP layer by its package name only (no relative path out of apps/billing)', () => {
    const escaping = appFiles.flatMap(importsOf).filter((site) => site.target && !inside(site.target, app));
    assert.deepEqual(escaping.map(show), []);
  });

  it('only tests import the testing entry (@nest-mcp/core/testing)', () => {
    const production = sources(src).filter((file) => !isSpec(file));
    const testing = production.flatMap(importsOf).filter((site) => site.specifier === '@nest-mcp/core/testing');
    assert.deepEqual(testing.map(show), []);
  });

  it('lower app layers do not import higher ones (context ↛ database, database ↛ anything but context, common and config)', () => {
    const rules: Array<{ layer: string; mayImport: string[] }> = [
      { layer: 'context', mayImport: ['context', 'generated', 'identity'] },
      { layer: 'database', mayImport: ['database', 'context', 'common', 'config', 'generated'] },
      { layer: 'common', mayImport: ['common'] },
      // The environment is read by every layer: it imports nothing of the app.
      { layer: 'config', mayImport: ['config'] },
    ];
    const upward = rules.flatMap(({ layer, mayImport }) =>
      sources(join(src, layer))
        .filter((file) => !isSpec(file))
        .flatMap(importsOf)
        .filter(
          (site) => site.target && inside(site.target, src) && !mayImport.some((allowed) => inside(site.target!, join(src, allowed))),
        ),
    );
    assert.deepEqual(upward.map(show), []);
  });

  it('only the entry points import the composition (no folder under src/ but cli/ imports the root composition files)', () => {
    // The root composes the app: its settings (app-config*.ts: the whole configuration, and the
    // module that provides each section under its own token), its module and its boot. A feature
    // injects its own section's token; only main.ts (itself at the root) and the CLIs load the whole.
    const composition = ['main.ts', 'app.module.ts', 'app.setup.ts', 'app.guards.ts', 'app-config.ts', 'app-config.module.ts'];
    for (const name of composition) assert.ok(existsSync(join(src, name)), `src/${name} exists`);
    const isComposition = (target: string) => dirname(target) === src && composition.includes(basename(target).replace(/\.js$/, '.ts'));
    const folders = sources(src).filter((file) => dirname(file) !== src && !inside(file, join(src, 'cli')));
    const reaching = folders.flatMap(importsOf).filter((site) => site.target && isComposition(site.target));
    assert.deepEqual(reaching.map(show), []);
  });

  it('finds imports at all (the scan is not vacuous)', () => {
    const sites = appFiles.flatMap(importsOf);
    assert.ok(sites.some((site) => site.specifier === '@nest-mcp/core'));
    assert.ok(sites.some((site) => site.specifier === '@nest-mcp/core/testing'));
    assert.ok(sites.some((site) => site.target !== undefined));
  });
});
