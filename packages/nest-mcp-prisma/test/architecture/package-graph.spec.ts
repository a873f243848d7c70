import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';

/**
 * The package boundary and the package graph, checked on the sources: what ships (src/, specs
 * aside) imports nothing outside src/, only node: modules and the packages its manifest declares,
 * and the core only through its public entry; the core imports no adapter package; the folders of
 * src/ have no import loop (the files at the root compose them and no folder imports them).
 */
const pkg = resolve(import.meta.dirname, '..', '..');
const src = join(pkg, 'src');
const core = resolve(pkg, '..', 'nest-mcp', 'src');

interface ImportSite {
  file: string;
  specifier: string;
  target?: string;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
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
const isSpec = (file: string) => /\.(e2e-)?spec\.ts$/.test(file);
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const show = (site: ImportSite) => `${relative(pkg, site.file)} imports '${site.specifier}'`;
const shipped = sources(src).filter((file) => !isSpec(file));
const sites = shipped.flatMap(importsOf);

describe('package graph (@nest-mcp/prisma)', () => {
  it('what ships imports nothing outside src/ (no path into an app, a test or another workspace)', () => {
    assert.deepEqual(sites.filter((site) => site.target && !inside(site.target, src)).map(show), []);
  });

  it('what ships imports only node: modules and the packages its manifest declares', () => {
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
    const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const undeclared = sites.filter(
      (site) => !site.target && !site.specifier.startsWith('node:') && !declared.has(packageOf(site.specifier)),
    );
    assert.deepEqual(undeclared.map(show), []);
  });

  it("reaches the core only through its public entry, never a deep path into it (the core's internals are not a contract)", () => {
    const deep = sites.filter((site) => site.specifier.startsWith('@nest-mcp/core/'));
    assert.deepEqual(deep.map(show), []);
    assert.ok(
      sites.some((site) => site.specifier === '@nest-mcp/core'),
      'the scan found the core (it is not vacuous)',
    );
  });

  it('the core depends on no adapter package: nothing in packages/nest-mcp/src imports @nest-mcp/prisma', () => {
    const adapters = sources(core)
      .flatMap(importsOf)
      .filter((site) => site.specifier.startsWith('@nest-mcp/') && packageOf(site.specifier) !== '@nest-mcp/core');
    assert.deepEqual(
      adapters.map((site) => `${relative(core, site.file)} imports '${site.specifier}'`),
      [],
    );
  });

  it('no folder of src/ imports the root files, and the folders have no import loop', () => {
    const folderOf = (file: string) => {
      const parts = relative(src, file).split(sep);
      return parts.length > 1 ? parts[0] : undefined;
    };
    const local = sites.filter((site): site is ImportSite & { target: string } => !!site.target && inside(site.target, src));
    assert.deepEqual(local.filter((site) => folderOf(site.file) && !folderOf(site.target)).map(show), []);
    const edges = new Map<string, Set<string>>();
    for (const site of local) {
      const [from, to] = [folderOf(site.file), folderOf(site.target)];
      if (from && to && from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
    const loop = (start: string): string[] | undefined => {
      const walk = (folder: string, path: string[]): string[] | undefined => {
        for (const to of edges.get(folder) ?? []) {
          if (to === start) return [...path, to];
          if (!path.includes(to)) {
            const found = walk(to, [...path, to]);
            if (found) return found;
          }
        }
        return undefined;
      };
      return walk(start, [start]);
    };
    assert.deepEqual(
      [...edges.keys()]
        .map(loop)
        .filter(Boolean)
        .map((path) => path!.join(' → ')),
      [],
    );
  });
});
