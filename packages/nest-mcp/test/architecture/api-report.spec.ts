import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * The public surface of every package under packages/, checked against its `api-report.md`: each
 * entry point its manifest exports (`.`, `./extensions`, `./testing`, …), and every name each one
 * exports: values as the module really has them at run time, types as TypeScript resolves them
 * (`export *` included). A value that TypeScript sees but the module does not export (a function
 * re-exported by `export type *`, which erases it) fails the test. A change
 * to a surface fails here until its report is updated with it
 * (`UPDATE_API_REPORT=1 npm test -- api-report`), so it lands in review as a deliberate change.
 */
const packages = resolve(import.meta.dirname, '..', '..', '..');

interface Manifest {
  name: string;
  exports: Record<string, string | { '@nest-mcp/source'?: string }>;
}

/** Each entry point's source file, by subpath. */
function entryPoints(pkg: string, manifest: Manifest): Array<{ subpath: string; file: string }> {
  return Object.entries(manifest.exports)
    .filter(([, target]) => typeof target === 'object' && target['@nest-mcp/source'])
    .map(([subpath, target]) => ({ subpath, file: join(pkg, (target as { '@nest-mcp/source': string })['@nest-mcp/source']) }));
}

/**
 * What one entry point exports: its values (what `import()` of it gives), its types (the other
 * names TypeScript sees), and the values lost on the way: declared as values, yet not exported at
 * run time.
 */
async function exportsOf(program: ts.Program, file: string): Promise<{ values: string[]; types: string[]; lost: string[] }> {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`TypeScript cannot read ${file}`);
  const runtime = new Set(Object.keys((await import(pathToFileURL(file).href)) as object));
  const types: string[] = [];
  const lost: string[] = [];
  for (const symbol of checker.getExportsOfModule(module)) {
    const name = symbol.getName();
    if (runtime.has(name)) continue;
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declaredAsValue = !!(target.flags & ts.SymbolFlags.Value) && !(target.flags & ts.SymbolFlags.Interface);
    // `export type { X }` of a class is deliberate (its type only); `export type *` erasing a function is not.
    const typeOnlyByChoice = !!symbol.declarations?.some((declaration) => ts.isTypeOnlyImportOrExportDeclaration(declaration));
    (declaredAsValue && !typeOnlyByChoice && !(target.flags & ts.SymbolFlags.Class) ? lost : types).push(name);
  }
  return { values: [...runtime].sort(), types: types.sort(), lost: lost.sort() };
}

function report(manifest: Manifest, entries: Array<{ subpath: string; values: string[]; types: string[] }>): string {
  const lines = [
    `# ${manifest.name}: public API`,
    '',
    "Every name each entry point of the package exports (checked by the core's test/architecture/api-report.spec.ts;",
    'regenerate with `UPDATE_API_REPORT=1 npm test -- api-report`). A change here is a change for everyone who depends on the package.',
  ];
  for (const { subpath, values, types } of entries) {
    const specifier = subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`;
    lines.push('', `## \`${specifier}\``, '', `Values (${values.length}):`, '');
    lines.push(...values.map((name) => `- \`${name}\``));
    lines.push('', `Types (${types.length}):`, '');
    lines.push(...types.map((name) => `- \`${name}\``));
  }
  return lines.join('\n') + '\n';
}

for (const name of readdirSync(packages).filter((entry) => existsSync(join(packages, entry, 'package.json')))) {
  const pkg = join(packages, name);
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Manifest;
  const reportFile = join(pkg, 'api-report.md');

  describe(`public API report (${manifest.name})`, () => {
    it('each entry point exports exactly what api-report.md lists, every value at run time too', async () => {
      const entries = entryPoints(pkg, manifest);
      const config = ts.getParsedCommandLineOfConfigFile(
        join(pkg, 'tsconfig.json'),
        {},
        { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
      );
      const program = ts.createProgram(
        entries.map((entry) => entry.file),
        { ...config?.options, noEmit: true, customConditions: ['@nest-mcp/source'] },
      );
      const surfaces = [];
      for (const entry of entries) surfaces.push({ subpath: entry.subpath, ...(await exportsOf(program, entry.file)) });
      assert.deepEqual(
        surfaces.flatMap(({ subpath, lost }) => lost.map((name) => `${subpath}: ${name}`)),
        [],
        'values that the entry point exports as types only (an `export type` line erases them at run time)',
      );
      const now = report(manifest, surfaces);
      if (process.env.UPDATE_API_REPORT === '1') writeFileSync(reportFile, now);
      assert.equal(
        now,
        existsSync(reportFile) ? readFileSync(reportFile, 'utf8') : '',
        'the public surface changed: review it, then UPDATE_API_REPORT=1 npm test -- api-report',
      );
    });
  });
}
