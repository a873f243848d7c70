import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Compares a value with a JSON snapshot checked in beside the test file that calls it:
 * `matchSnapshot(import.meta.url, 'tools', value)` reads `<test file's folder>/__snapshots__/tools.json`.
 * A missing snapshot is written on a developer's machine and fails on CI (CI=true), so a snapshot
 * can never be created unseen. `UPDATE_SNAPSHOTS=1 npm test -- <file>` rewrites them on purpose.
 * A failure names what changed (for a list of tools: the tools added, removed and changed) and the
 * command that accepts the change.
 */
export function matchSnapshot(testFileUrl: string, name: string, value: unknown): void {
  const file = join(dirname(fileURLToPath(testFileUrl)), '__snapshots__', `${name}.json`);
  const serialized = JSON.stringify(value, null, 2) + '\n';
  if (process.env.UPDATE_SNAPSHOTS === '1' || (!existsSync(file) && process.env.CI !== 'true')) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, serialized);
    return;
  }
  const update = `UPDATE_SNAPSHOTS=1 npm test -- ${testFileHint()}`;
  assert.ok(existsSync(file), `snapshot ${relative(process.cwd(), file)} is missing: run ${update} and review it`);
  const actual: unknown = JSON.parse(serialized);
  const expected: unknown = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(
    actual,
    expected,
    `snapshot ${name} changed (${describeChange(expected, actual)}). If that is intended: ${update}, then review the diff of ${relative(process.cwd(), file)}`,
  );
}

/** "changed: create_invoice; added: close_ticket; removed: …" for named entries, else the top-level keys that differ. */
export function describeChange(expected: unknown, actual: unknown): string {
  const named = (value: unknown) =>
    Array.isArray(value) && value.every((entry) => typeof (entry as { name?: unknown } | null)?.name === 'string')
      ? new Map(value.map((entry: { name: string }) => [entry.name, JSON.stringify(entry)]))
      : undefined;
  const before = named(expected);
  const after = named(actual);
  if (before && after) {
    const parts = [
      ['changed', [...after.keys()].filter((key) => before.has(key) && before.get(key) !== after.get(key))],
      ['added', [...after.keys()].filter((key) => !before.has(key))],
      ['removed', [...before.keys()].filter((key) => !after.has(key))],
    ] as const;
    const listed = parts.filter(([, names]) => names.length).map(([label, names]) => `${label}: ${names.join(', ')}`);
    if (!listed.length) return 'order changed';
    return listed.join('; ');
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].filter(
      (key) => JSON.stringify(expected[key]) !== JSON.stringify(actual[key]),
    );
    return `differs at: ${keys.join(', ')}`;
  }
  return 'value differs';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The test file that called matchSnapshot, as `npm test -- <file>` takes it. */
function testFileHint(): string {
  const frame = new Error().stack?.split('\n').find((line) => /\.(e2e-)?spec\.ts/.test(line));
  const path = frame && /(?:file:\/\/)?(\/[^:)]+\.(?:e2e-)?spec\.ts)/.exec(frame)?.[1];
  return path ? relative(process.cwd(), path) : '<test file>';
}
