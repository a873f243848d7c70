import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));

describe('the boot with a bad environment variable', () => {
  it('stops before anything starts, with one line naming the variable and its value', () => {
    // DATABASE_URL points nowhere: had the boot gone on, it would fail later, differently.
    const child = spawnSync(process.execPath, [MAIN], {
      env: { ...process.env, DATABASE_POOL_SIZE: 'abc', DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none', PORT: '0' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(child.status, 1, child.stderr);
    assert.equal(
      child.stderr.trim(),
      'Invalid environment: DATABASE_POOL_SIZE must be an integer from 1 to 1000 (got "abc"). See docs/configuration.md.',
    );
    assert.equal(child.stdout, '');
  });
});
