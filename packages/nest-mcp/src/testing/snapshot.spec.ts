import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { describeChange, matchSnapshot } from './snapshot.js';

describe('matchSnapshot', () => {
  it('names the tools added, removed and changed, and the command that accepts them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'snapshot-spec-'));
    const previousCi = process.env.CI;
    try {
      delete process.env.CI;
      mkdirSync(join(dir, 'e2e', '__snapshots__'), { recursive: true });
      const before = [
        { name: 'list_invoices', inputSchema: { type: 'object' } },
        { name: 'close_ticket', inputSchema: { type: 'object' } },
      ];
      writeFileSync(join(dir, 'e2e', '__snapshots__', 'tools.json'), JSON.stringify(before));
      const after = [
        { name: 'list_invoices', inputSchema: { type: 'object', required: ['status'] } },
        { name: 'open_ticket', inputSchema: { type: 'object' } },
      ];
      assert.throws(
        () => matchSnapshot(pathToFileURL(join(dir, 'e2e', 'tools.e2e-spec.ts')).href, 'tools', after),
        (error: Error) => {
          assert.match(error.message, /snapshot tools changed \(changed: list_invoices; added: open_ticket; removed: close_ticket\)/);
          assert.match(error.message, /UPDATE_SNAPSHOTS=1 npm test -- \S*src\/testing\/snapshot\.spec\.ts/);
          return true;
        },
      );
    } finally {
      if (previousCi !== undefined) process.env.CI = previousCi;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the top-level keys of an object snapshot that differ', () => {
    assert.equal(
      describeChange({ type: 'object', properties: { a: 1 }, required: [] }, { type: 'object', properties: { a: 2 } }),
      'differs at: properties, required',
    );
  });
});
