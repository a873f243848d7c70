import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { redactUrl } from '../../src/connection/redact-url.js';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitBucket } from '../../src/index.js';
import { freePort } from '../../../nest-mcp/test/support/fresh-app.js';
import { tcpProxy } from '../support/tcp-proxy.js';
import { runPrefix, TEST_REDIS_URL as REDIS_URL } from '../support/test-redis.js';

// The machine's Redis (CI starts it); keys under a prefix of this run only.
const REDIS = new URL(REDIS_URL);
const RUN = runPrefix('rl-spec');
let keys = 0;
const bucket = (limit: number, periodMs = 60_000): RateLimitBucket => ({ key: `${RUN}:${++keys}`, limit, periodMs });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Logged {
  warnings: string[];
  logs: string[];
}

function quietStore(options: Partial<ConstructorParameters<typeof RedisRateLimitStore>[0]> = {}): RedisRateLimitStore & { logged: Logged } {
  const store = new RedisRateLimitStore({ url: REDIS_URL, timeoutMs: 250, ...options }) as RedisRateLimitStore & { logged: Logged };
  const logged: Logged = { warnings: [], logs: [] };
  (store as unknown as { logger: unknown }).logger = {
    warn: (m: string) => logged.warnings.push(m),
    log: (m: string) => logged.logs.push(m),
  };
  store.logged = logged;
  return store;
}

describe('RedisRateLimitStore (real Redis)', () => {
  const stores: RedisRateLimitStore[] = [];
  const open = async (options: Partial<ConstructorParameters<typeof RedisRateLimitStore>[0]> = {}, waitMs = 2_000) => {
    const store = quietStore(options);
    stores.push(store);
    await store.connect(waitMs);
    return store;
  };
  after(async () => {
    for (const store of stores) await store.onModuleDestroy();
  });

  it('decides exactly as the in-memory GCRA does, bucket for bucket', async () => {
    const redis = await open();
    const memory = new MemoryRateLimitStore();
    try {
      const token = bucket(5);
      const workspace = bucket(8);
      const costs = [1, 1, 3, 1, 5, 1, 1, 10, 1];
      const decide = async (store: MemoryRateLimitStore | RedisRateLimitStore, buckets: RateLimitBucket[]) => {
        const out = [];
        for (const cost of costs) out.push(await store.consume(buckets, cost));
        // Another token in the same workspace.
        const other = { ...buckets[0], key: `${buckets[0].key}:other` };
        out.push(await store.consume([other, buckets[1]], 2));
        out.push(await store.consume([other, buckets[1]], 2));
        return out;
      };
      const fromRedis = await decide(redis, [token, workspace]);
      const fromMemory = await decide(memory, [
        { ...token, key: `m:${token.key}` },
        { ...workspace, key: `m:${workspace.key}` },
      ]);
      assert.deepEqual(
        fromRedis.map((d) => (d.allowed ? 'ok' : `refused by ${d.bucket}`)),
        fromMemory.map((d) => (d.allowed ? 'ok' : `refused by ${d.bucket}`)),
      );
      assert.deepEqual(
        fromRedis.map((d) => d.allowed),
        [true, true, true, false, false, false, false, false, false, true, false],
      );
      // The other token still had units: its second call was refused by the shared workspace bucket.
      assert.deepEqual(fromRedis.at(-1), { ...fromRedis.at(-1), allowed: false, bucket: 1 });
      fromRedis.forEach((d, i) => {
        const m = fromMemory[i];
        if (!d.allowed && !m.allowed)
          assert.ok(Math.abs(d.retryAfterMs - m.retryAfterMs) < 1_000, `${d.retryAfterMs} vs ${m.retryAfterMs}`);
      });
    } finally {
      memory.onModuleDestroy();
    }
  });

  it('refills at limit / period and says when the request would pass', async () => {
    const redis = await open();
    const fast = bucket(4, 400); // one unit every 100 ms
    for (let i = 0; i < 4; i++) assert.equal((await redis.consume([fast], 1)).allowed, true);
    const refused = await redis.consume([fast], 1);
    assert.equal(refused.allowed, false);
    assert.ok(!refused.allowed && refused.retryAfterMs > 0 && refused.retryAfterMs <= 100, JSON.stringify(refused));
    await sleep(refused.allowed ? 0 : refused.retryAfterMs + 5);
    assert.equal((await redis.consume([fast], 1)).allowed, true);
  });

  it('is atomic across clients: of 40 concurrent requests from two connections, exactly the limit passes', async () => {
    const [one, two] = [await open(), await open()];
    const shared = bucket(15);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).consume([shared], 1)));
    assert.equal(answers.filter((a) => a.allowed).length, 15);
  });

  it('takes limits so high that a unit is under a microsecond (the bench lifts limits this way)', async () => {
    const redis = await open();
    const lifted = bucket(1_000_000_000);
    for (let i = 0; i < 50; i++) assert.equal((await redis.consume([lifted], 10)).allowed, true);
    assert.deepEqual(redis.logged.warnings, [], 'answered by Redis, not by the fallback');
  });

  it('lets keys expire when their bucket is full again', async () => {
    const redis = await open();
    const fast = bucket(2, 200);
    await redis.consume([fast], 2);
    const client = (redis as unknown as { client: { pTTL(key: string): Promise<number>; exists(key: string): Promise<number> } }).client;
    const ttl = await client.pTTL(fast.key);
    assert.ok(ttl > 0 && ttl <= 200, `PTTL ${ttl}`);
    await sleep(250);
    assert.equal(await client.exists(fast.key), 0);
  });

  it('fails open when Redis is unreachable at boot: counts in memory, warns once', async () => {
    const port = await freePort();
    const store = await open({ url: `redis://127.0.0.1:${port}` }, 300);
    assert.equal(store.connected, false);
    const only = bucket(2);
    const decisions = [await store.consume([only], 1), await store.consume([only], 1), await store.consume([only], 1)];
    assert.deepEqual(
      decisions.map((d) => d.allowed),
      [true, true, false],
    );
    assert.equal(store.logged.warnings.length, 1, store.logged.warnings.join('\n'));
    assert.match(store.logged.warnings[0], /failed \(.*\): rate limits fail open to this process's own counters/);
  });

  it('fails open while Redis is away, and shares the limits again when it is back', async () => {
    const proxy = await tcpProxy(Number(REDIS.port || 6379), REDIS.hostname);
    try {
      const store = await open({ url: `redis://${proxy.host}:${proxy.port}`, retryAfterFailureMs: 50 });
      const shared = bucket(3);
      assert.equal((await store.consume([shared], 1)).allowed, true);

      await proxy.stop();
      await sleep(50);
      // Served from this process's counters: a fresh local bucket.
      for (let i = 0; i < 3; i++) assert.equal((await store.consume([shared], 1)).allowed, true, `local ${i}`);
      assert.equal(store.logged.warnings.length, 1);

      await proxy.start();
      await waitFor(() => store.connected, 5_000);
      // Back on Redis, where 1 of 3 units had been spent.
      assert.deepEqual(
        (await Promise.all([1, 2, 3].map(() => store.consume([shared], 1)))).map((d) => d.allowed),
        [true, true, false],
      );
      assert.match(store.logged.logs.at(-1) ?? '', /answers again after \d+ s: rate limits are shared again/);
    } finally {
      await proxy.stop();
    }
  });

  it('treats a Redis slower than the timeout as unreachable (no request waits on it)', async () => {
    const proxy = await tcpProxy(Number(REDIS.port || 6379), REDIS.hostname);
    try {
      const store = await open({ url: `redis://${proxy.host}:${proxy.port}`, timeoutMs: 100, retryAfterFailureMs: 200 });
      const only = bucket(1);
      proxy.stall(true);
      const started = performance.now();
      assert.equal((await store.consume([only], 1)).allowed, true, 'served from memory');
      assert.ok(performance.now() - started < 1_000);
      // Within the retry window Redis is skipped at once.
      const skipped = performance.now();
      assert.equal((await store.consume([only], 1)).allowed, false, 'the local bucket holds one unit');
      assert.ok(performance.now() - skipped < 50);
      assert.equal(store.logged.warnings.length, 1);
    } finally {
      proxy.stall(false);
      await proxy.stop();
    }
  });

  it('never logs a password', () => {
    assert.equal(redactUrl('redis://user:secret@cache:6379/1'), 'redis://user:***@cache:6379/1');
    assert.equal(redactUrl('redis://cache:6379'), 'redis://cache:6379');
  });
});

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(20);
  }
}
