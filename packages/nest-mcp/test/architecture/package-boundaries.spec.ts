import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MCP_EXTENSION_POINTS } from '../../src/extension-points/mcp-extension-points.js';
import { importsOf, inside, isSpec, packageOf, sources, type ImportSite } from '../support/import-sites.js';

/**
 * The package boundary, checked on the sources: what ships (src/, tests aside) imports nothing
 * outside the package and only node: modules and the packages its manifest declares, so the
 * tarball installs and runs in any Nest app. (The app's side of the boundary is checked in
 * apps/billing/test/architecture/import-boundaries.spec.ts.)
 */
const pkg = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const src = join(pkg, 'src');
const shipped = sources(src).filter((file) => !isSpec(file));
const show = (site: ImportSite) => `${relative(pkg, site.file)} imports '${site.specifier}'`;

describe('package boundaries (@nest-mcp/core)', () => {
  it('what ships imports nothing outside src/ (no path into an app, a test or another workspace)', () => {
    const outside = shipped.flatMap(importsOf).filter((site) => site.target && !inside(site.target, src));
    assert.deepEqual(outside.map(show), []);
  });

  it('what ships imports only node: modules and the packages its manifest declares (dependencies, peerDependencies)', () => {
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
    const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const undeclared = shipped
      .flatMap(importsOf)
      .filter((site) => !site.target && !site.specifier.startsWith('node:'))
      // `express` is only imported for its types, which come from `@types/express`.
      .filter((site) => !declared.has(packageOf(site.specifier)) && !declared.has(`@types/${packageOf(site.specifier)}`));
    assert.deepEqual(undeclared.map(show), []);
  });

  it("the testing entry is built from the package's own sources, like the main entry", () => {
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
    for (const entry of ['.', './testing']) {
      const target = manifest.exports[entry];
      assert.match(target['@nest-mcp/source'], /^\.\/src\/(testing\/)?index\.ts$/);
      assert.equal(target.default, target['@nest-mcp/source'].replace(/^\.\/src\//, './dist/').replace(/\.ts$/, '.js'));
      assert.equal(target.types, target.default.replace(/\.js$/, '.d.ts'));
    }
  });

  it('every extension point an app fills is defined in src/contracts/, and contracts/ holds nothing else', async () => {
    const contracts = sources(join(src, 'contracts')).filter((file) => !isSpec(file));
    const exported = new Map<unknown, string>();
    for (const file of contracts) {
      const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      for (const value of Object.values(module)) exported.set(value, relative(pkg, file));
    }
    const elsewhere = Object.entries(MCP_EXTENSION_POINTS)
      .filter(([, point]) => !exported.has(point.token))
      .map(([name]) => name);
    assert.deepEqual(elsewhere, []);
    const tokens = new Set(Object.values(MCP_EXTENSION_POINTS).map((point) => point.token));
    const strays = contracts.filter(
      (file) => ![...exported].some(([value, path]) => path === relative(pkg, file) && tokens.has(value as symbol)),
    );
    assert.deepEqual(
      strays.map((file) => relative(pkg, file)),
      [],
      'a file in contracts/ that defines no extension point',
    );
  });

  it('finds imports at all (the scan is not vacuous)', () => {
    assert.ok(shipped.flatMap(importsOf).some((site) => site.specifier === '@nestjs/common'));
    assert.ok(shipped.flatMap(importsOf).some((site) => site.target !== undefined));
  });
});

/**
 * The adapter packages beside the core (packages/nest-mcp-prisma, …), on the same rules, and the
 * graph between packages: an adapter reaches the core only through its entry points (the core's
 * internals are no contract), and the core depends on no adapter.
 */
const packagesDir = resolve(pkg, '..');
/** What an adapter's shipped code may import of the core: the entry points its manifest exports, but `/testing`. */
const CORE_ENTRIES = new Set(
  Object.keys(JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).exports as Record<string, unknown>)
    .filter((subpath) => subpath !== './package.json' && subpath !== './testing')
    .map((subpath) => (subpath === '.' ? '@nest-mcp/core' : `@nest-mcp/core${subpath.slice(1)}`)),
);
const adapters = readdirSync(packagesDir)
  .map((name) => join(packagesDir, name))
  .filter((dir) => dir !== pkg && existsSync(join(dir, 'package.json')));

for (const adapter of adapters) {
  const manifest = JSON.parse(readFileSync(join(adapter, 'package.json'), 'utf8'));
  const adapterSrc = join(adapter, 'src');
  const sites = sources(adapterSrc)
    .filter((file) => !isSpec(file))
    .flatMap(importsOf);
  const showIn = (site: ImportSite) => `${relative(adapter, site.file)} imports '${site.specifier}'`;

  describe(`package boundaries (${manifest.name})`, () => {
    it('what ships imports nothing outside src/ (no path into an app, a test or another workspace)', () => {
      assert.deepEqual(sites.filter((site) => site.target && !inside(site.target, adapterSrc)).map(showIn), []);
    });

    it('what ships imports only node: modules and the packages its manifest declares', () => {
      const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
      const undeclared = sites.filter(
        (site) => !site.target && !site.specifier.startsWith('node:') && !declared.has(packageOf(site.specifier)),
      );
      assert.deepEqual(undeclared.map(showIn), []);
    });

    it('reaches the core only through its entry points (the root, /extensions), never a deep path or its testing kit', () => {
      const core = sites.filter((site) => packageOf(site.specifier) === '@nest-mcp/core');
      assert.deepEqual(core.filter((site) => !CORE_ENTRIES.has(site.specifier)).map(showIn), []);
      assert.ok(core.length, 'the scan found the core (it is not vacuous)');
    });
  });
}

describe('package graph', () => {
  it('the core depends on no adapter package: nothing it ships imports another @nest-mcp/ package', () => {
    const adapterImports = shipped
      .flatMap(importsOf)
      .filter((site) => site.specifier.startsWith('@nest-mcp/') && packageOf(site.specifier) !== '@nest-mcp/core');
    assert.deepEqual(adapterImports.map(show), []);
    assert.ok(adapters.length >= 1, 'the adapters beside the core are found');
  });
});
