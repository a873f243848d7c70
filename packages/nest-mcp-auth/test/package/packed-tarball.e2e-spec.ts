import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
// The core's fresh-app kit: every package's install test packs the same way.
import { pack } from '../../../nest-mcp/test/support/fresh-app.js';

/**
 * What `npm pack` of @nest-mcp/auth ships: the build with its declarations, the README and docs/ (standalone:
 * the core's shipped-docs test checks its links) and the API report, and nothing else: no test, no
 * source, no source map, no build info.
 */
describe('@nest-mcp/auth packed as a tarball', { timeout: 180_000 }, () => {
  let work: string;
  let files: string[];
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'nest-mcp-auth-pack-'));
    // The core first, as an installing app gets it (its prepack builds the dist/ this build reads).
    pack('packages/nest-mcp', work);
    files = pack('packages/nest-mcp-auth', work).files;
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('ships the build, its declarations, the README, the docs and the API report', () => {
    for (const file of [
      'package.json',
      'README.md',
      'docs/identity-providers.md',
      'api-report.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/mcp-auth.module.js',
      'dist/authentication/mcp-auth.guard.js',
      'dist/policy/mcp-scope.policy.js',
      'dist/tokens/jwt-access-token.verifier.js',
      'dist/metadata/protected-resource.controller.js',
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
      files.filter((file) => !/^(dist\/|docs\/|README\.md$|api-report\.md$|package\.json$)/.test(file)),
      [],
      'only what the manifest lists',
    );
  });
});
