import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { paginate } from './list-pagination.js';

describe('paginate', () => {
  const items = Array.from({ length: 5 }, (_, i) => i);

  it('walks every item exactly once through opaque cursors', () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = paginate(items, cursor, 2);
      seen.push(...page.page);
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, items);
  });

  it('has no nextCursor on the last page', () => {
    assert.equal(paginate(items, undefined, 5).nextCursor, undefined);
  });

  it('refuses a cursor it did not issue with -32602', () => {
    for (const cursor of ['garbage', 42, Buffer.from('o:-1').toString('base64url')]) {
      assert.throws(() => paginate(items, cursor, 2), { code: -32602 });
    }
  });
});
