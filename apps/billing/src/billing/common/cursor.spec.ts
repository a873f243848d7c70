import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BadRequestException } from '@nestjs/common';
import { decodeCursor, encodeCursor } from './cursor.js';

const ID = '0b6f3c9e-2d4a-4f8e-9c1b-7a5d3e2f1a0b';
const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function refused(cursor: string, key?: 'text' | 'date' | 'timestamp'): void {
  assert.throws(
    () => decodeCursor(cursor, key),
    (error: unknown) => error instanceof BadRequestException && (error.getResponse() as { code: string }).code === 'invalid_cursor',
    cursor,
  );
}

describe('decodeCursor', () => {
  it('gives back what encodeCursor issued, for every key kind', () => {
    assert.deepEqual(decodeCursor(encodeCursor({ key: 'Acme Logistics', id: ID })), { key: 'Acme Logistics', id: ID });
    assert.deepEqual(decodeCursor(encodeCursor({ key: '2026-11-30', id: ID }), 'date'), { key: '2026-11-30', id: ID });
    const instant = new Date('2026-11-30T13:40:20.123Z').toISOString();
    assert.deepEqual(decodeCursor(encodeCursor({ key: instant, id: ID }), 'timestamp'), { key: instant, id: ID });
    assert.equal(decodeCursor(undefined), undefined);
  });

  it('refuses a cursor whose id is not a uuid (a database error before)', () => {
    refused(raw(['Acme', 'not-a-uuid']));
    refused(raw(['Acme', `${ID}x`]));
  });

  it('refuses keys no column of the list holds: NUL bytes, impossible dates, years Postgres cannot store', () => {
    refused(raw(['Ac\u0000me', ID]));
    refused(raw(['x'.repeat(1001), ID]));
    for (const key of ['0000-01-01', '2026-02-30', '2026-1-1', 'Acme']) refused(raw([key, ID]), 'date');
    for (const key of ['-010000-01-01T00:00:00.000Z', '2026-11-30', 'Acme', '+275760-09-13T00:00:00.000Z'])
      refused(raw([key, ID]), 'timestamp');
  });

  it('refuses anything that is not a [key, id] pair of strings', () => {
    for (const cursor of ['%%%', raw(null), raw(5), raw('ab'), raw([ID]), raw(['a', ID, 'b']), raw([1, ID]), raw({ key: 'a', id: ID })])
      refused(cursor);
  });
});
