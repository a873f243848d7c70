import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryRateLimitStore } from './memory-rate-limit.store.js';

describe('MemoryRateLimitStore', () => {
  const bucket = (key: string, limit = 3) => ({ key, limit, periodMs: 3_000 });

  it('keeps one bucket per key, refills over time, and charges all buckets or none', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore(() => now);
    try {
      const both = [bucket('token'), bucket('workspace', 4)];
      for (let i = 0; i < 3; i++) assert.equal((await store.consume(both, 1)).allowed, true);
      assert.deepEqual(await store.consume(both, 1), { allowed: false, bucket: 0, retryAfterMs: 1000 });
      // The refused request left the workspace with one unit: another token can still spend it.
      assert.equal((await store.consume([bucket('other'), bucket('workspace', 4)], 1)).allowed, true);
      assert.deepEqual(await store.consume([bucket('other'), bucket('workspace', 4)], 1), { allowed: false, bucket: 1, retryAfterMs: 750 });
      now += 1000;
      assert.equal((await store.consume([bucket('token')], 1)).allowed, true);
    } finally {
      store.onModuleDestroy();
    }
  });

  it('forgets buckets that are full again', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    try {
      await store.consume([bucket('a'), bucket('b')], 2);
      assert.equal(store.size, 2);
      now += 1_999;
      store.sweep();
      assert.equal(store.size, 2);
      now += 1;
      store.sweep();
      assert.equal(store.size, 0);
    } finally {
      store.onModuleDestroy();
    }
  });
});
