import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { MemoryRateLimitStore, RedisRateLimitStore } from '@nest-mcp/redis';
import { ACCOUNT_DELAY_MS, PanelLoginThrottle } from './panel-login-throttle.js';

function throttleAt(clock: { now: number }) {
  const store = new MemoryRateLimitStore(() => clock.now);
  return { store, throttle: new PanelLoginThrottle(store, 'rl') };
}

describe('PanelLoginThrottle (on the memory rate-limit store)', () => {
  it('locks an address for an account after 10 failures, not the same account from another address', async () => {
    const { store, throttle } = throttleAt({ now: 1_000_000 });
    for (let i = 0; i < 10; i++) {
      assert.deepEqual(await throttle.check('10.0.0.1', 'admin@x.test'), { locked: false, delayMs: 0 });
      await throttle.failed('10.0.0.1', 'admin@x.test');
    }
    const locked = await throttle.check('10.0.0.1', 'admin@x.test');
    assert.equal(locked.locked, true);
    assert.ok(locked.locked && locked.retryAfterMs > 0 && locked.retryAfterMs <= 90_000);
    assert.deepEqual(await throttle.check('10.0.0.2', 'admin@x.test'), { locked: false, delayMs: 0 });
    assert.deepEqual(await throttle.check('10.0.0.1', 'other@x.test'), { locked: false, delayMs: 0 });
    store.onModuleDestroy();
  });

  it('checking never counts as a failure', async () => {
    const { store, throttle } = throttleAt({ now: 1_000_000 });
    for (let i = 0; i < 50; i++) await throttle.check('10.0.0.1', 'admin@x.test');
    for (let i = 0; i < 9; i++) await throttle.failed('10.0.0.1', 'admin@x.test');
    assert.equal((await throttle.check('10.0.0.1', 'admin@x.test')).locked, false);
    store.onModuleDestroy();
  });

  it('slows an account failed from many addresses down (a delay, never a lock)', async () => {
    const { store, throttle } = throttleAt({ now: 1_000_000 });
    for (let i = 0; i < 20; i++) await throttle.failed(`10.0.1.${i}`, 'admin@x.test');
    assert.deepEqual(await throttle.check('10.0.2.1', 'admin@x.test'), { locked: false, delayMs: ACCOUNT_DELAY_MS });
    store.onModuleDestroy();
  });

  it('locks an address after 50 failures over any accounts (spraying)', async () => {
    const { store, throttle } = throttleAt({ now: 1_000_000 });
    for (let i = 0; i < 50; i++) await throttle.failed('10.0.0.9', `user${i}@x.test`);
    assert.equal((await throttle.check('10.0.0.9', 'fresh@x.test')).locked, true);
    store.onModuleDestroy();
  });

  it('a flood of 10,000+ distinct addresses and accounts does not lift a lock', async () => {
    const clock = { now: 1_000_000 };
    const { store, throttle } = throttleAt(clock);
    for (let i = 0; i < 10; i++) await throttle.failed('10.0.0.1', 'admin@x.test');
    for (let i = 0; i < 10_050; i++) await throttle.failed(`172.16.${i >> 8}.${i & 255}`, `flood${i}@x.test`);
    clock.now += 1_000;
    store.sweep();
    assert.equal((await throttle.check('10.0.0.1', 'admin@x.test')).locked, true);
    store.onModuleDestroy();
  });

  it('lets the pair try again once a failure has leaked out of the 15-minute window', async () => {
    const clock = { now: 1_000_000 };
    const { store, throttle } = throttleAt(clock);
    for (let i = 0; i < 10; i++) await throttle.failed('10.0.0.1', 'admin@x.test');
    const locked = await throttle.check('10.0.0.1', 'admin@x.test');
    assert.ok(locked.locked);
    clock.now += locked.retryAfterMs;
    assert.equal((await throttle.check('10.0.0.1', 'admin@x.test')).locked, false);
    store.onModuleDestroy();
  });
});

describe('PanelLoginThrottle on Redis (real Redis: replicas share the counters)', () => {
  it('a pair locked through one replica is locked on another, and the other address is not', async () => {
    const url = process.env.RATE_LIMIT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const [a, b] = [new RedisRateLimitStore({ url, timeoutMs: 250 }), new RedisRateLimitStore({ url, timeoutMs: 250 })];
    try {
      await Promise.all([a.connect(2_000), b.connect(2_000)]);
      assert.ok(a.connected && b.connected, `Redis at ${url} is needed`);
      const prefix = `rl-throttle-spec-${process.pid}-${randomBytes(3).toString('hex')}`;
      const [one, two] = [new PanelLoginThrottle(a, prefix), new PanelLoginThrottle(b, prefix)];
      for (let i = 0; i < 10; i++) {
        assert.equal((await one.check('10.0.0.1', 'admin@x.test')).locked, false);
        await (i % 2 ? one : two).failed('10.0.0.1', 'admin@x.test');
      }
      const locked = await two.check('10.0.0.1', 'admin@x.test');
      assert.ok(locked.locked && locked.retryAfterMs > 0 && locked.retryAfterMs <= 90_000, JSON.stringify(locked));
      assert.equal((await one.check('10.0.0.1', 'admin@x.test')).locked, true);
      assert.deepEqual(await two.check('10.0.0.2', 'admin@x.test'), { locked: false, delayMs: 0 });
    } finally {
      await Promise.all([a.onModuleDestroy(), b.onModuleDestroy()]);
    }
  });
});
