import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { combinedWrites } from './combined-writes.js';

describe('combinedWrites', () => {
  it('sends one waiting write as it is', () => {
    const combined = combinedWrites([sql`UPDATE t SET a = ${'x'}`]);
    assert.deepEqual(combined, { text: 'UPDATE t SET a = $1', values: ['x'] });
  });

  it('combines waiting writes with their placeholders renumbered in order', () => {
    const combined = combinedWrites([sql`UPDATE t SET a = ${'x'} WHERE b = ${'y'}`, sql`INSERT INTO u VALUES (${'z'})`]);
    assert.equal(combined.text, 'WITH w0 AS (UPDATE t SET a = $1 WHERE b = $2), w1 AS (INSERT INTO u VALUES ($3)) SELECT 1');
    assert.deepEqual(combined.values, ['x', 'y', 'z']);
  });
});
