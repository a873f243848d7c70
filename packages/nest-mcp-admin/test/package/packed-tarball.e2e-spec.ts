import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
// The core's fresh-app kit: every package's install test packs the same way.
import { pack } from '../../../nest-mcp/test/support/fresh-app.js';

/**
 * What `npm pack` of @nest-mcp/admin ships: the build with its declarations, the table's schema
 * file and SQL, the README (standalone: the core's shipped-docs test checks its links) and the API
 * report, and nothing else: no test, no source, no source map, no build info.
 */
describe('@nest-mcp/admin packed as a tarball', { timeout: 180_000 }, () => {
  let work: string;
  let files: string[];
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'nest-mcp-admin-pack-'));
    // The packages it builds against first, as an installing app gets them (each prepack builds its dist/).
    pack('packages/nest-mcp', work);
    pack('packages/nest-mcp-prisma', work);
    files = pack('packages/nest-mcp-admin', work).files;
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('ships the build, its declarations, the schema file and its SQL, the README and the API report', () => {
    for (const file of [
      'package.json',
      'README.md',
      'api-report.md',
      'prisma/nest-mcp-admin.prisma',
      'prisma/nest-mcp-admin.sql',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/mcp-admin.module.js',
      'dist/approvals/mcp-approvals.js',
      'dist/pages/admin-pages.controller.js',
    ]) {
      assert.ok(files.includes(file), `${file} is in the tarball`);
    }
  });

  it('ships no test, source, source map or build info', () => {
    assert.deepEqual(
      files.filter((file) => /\.spec\.|tsbuildinfo|\.map$|^src\/|^test\//.test(file)),
      [],
    );
    assert.deepEqual(
      files.filter((file) => !/^(dist\/|prisma\/|README\.md$|api-report\.md$|package\.json$)/.test(file)),
      [],
      'only what the manifest lists',
    );
  });
});
