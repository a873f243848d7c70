import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

/**
 * The public surface of @nest-mcp/prisma, checked against `api-report.md`: every name the package
 * root exports, values and types apart. A change to the surface fails here until the report is
 * updated with it (`UPDATE_API_REPORT=1 npm test -- api-report`), so it lands in review as a
 * deliberate change, beside the code.
 */
const pkg = resolve(import.meta.dirname, '..', '..');
const REPORT = join(pkg, 'api-report.md');

async function surface(): Promise<string> {
  const index = join(pkg, 'src', 'index.ts');
  const values = Object.keys((await import(pathToFileURL(index).href)) as object).sort();
  // `export type { A }` and `export { type A }` name types; everything else the import shows.
  const types = [...readFileSync(index, 'utf8').matchAll(/export (type )?\{([^}]*)\}/g)]
    .flatMap(([, typeOnly, names]) => names.split(',').map((name) => (typeOnly ? `type ${name.trim()}` : name.trim())))
    .filter((name) => name.startsWith('type '))
    .map((name) => name.slice('type '.length))
    .sort();
  return [
    '# @nest-mcp/prisma: public API',
    '',
    'Every name the package root exports (checked by test/architecture/api-report.spec.ts; regenerate with',
    '`UPDATE_API_REPORT=1 npm test -- api-report`). A change here is a change for everyone who depends on the package.',
    '',
    `## Values (${values.length})`,
    '',
    ...values.map((name) => `- \`${name}\``),
    '',
    `## Types (${types.length})`,
    '',
    ...types.map((name) => `- \`${name}\``),
    '',
  ].join('\n');
}

describe('public API report (@nest-mcp/prisma)', () => {
  it('the root exports exactly what api-report.md lists', async () => {
    const now = await surface();
    if (process.env.UPDATE_API_REPORT === '1') writeFileSync(REPORT, now);
    assert.equal(
      now,
      readFileSync(REPORT, 'utf8'),
      'the public surface changed: review it, then UPDATE_API_REPORT=1 npm test -- api-report',
    );
  });
});
