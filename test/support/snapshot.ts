import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Compares a value with a JSON snapshot checked in under `<repo>/<dir>/__snapshots__/<name>.json`.
 * A missing snapshot is written on a developer's machine and fails on CI (CI=true), so a snapshot
 * can never be created unseen. `UPDATE_SNAPSHOTS=1 npm test` rewrites them on purpose.
 */
export function matchSnapshot(dir: string, name: string, value: unknown): void {
  const file = join(process.cwd(), dir, '__snapshots__', `${name}.json`);
  const serialized = JSON.stringify(value, null, 2) + '\n';
  if (process.env.UPDATE_SNAPSHOTS === '1' || (!existsSync(file) && process.env.CI !== 'true')) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, serialized);
    return;
  }
  assert.ok(existsSync(file), `snapshot ${file} is missing; run UPDATE_SNAPSHOTS=1 npm test and review it`);
  assert.deepEqual(JSON.parse(serialized), JSON.parse(readFileSync(file, 'utf8')), `snapshot ${name} changed`);
}
