import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveMcpRedisOptions } from './resolve-options.js';

describe('resolveMcpRedisOptions', () => {
  it('fills the defaults', () => {
    assert.deepEqual(resolveMcpRedisOptions({ url: 'redis://cache:6379' }), {
      url: 'redis://cache:6379',
      keyPrefix: 'mcp',
      bootWaitMs: 2000,
      streams: { retentionMs: 600_000, maxPerStream: 1000 },
    });
  });

  it('takes every option', () => {
    const resolved = resolveMcpRedisOptions({
      url: 'rediss://user:secret@cache:6380/2',
      keyPrefix: 'billing.prod-1',
      bootWaitMs: 0,
      streams: { eventRetentionMs: 30_000, maxEventsPerStream: 50 },
    });
    assert.deepEqual(resolved, {
      url: 'rediss://user:secret@cache:6380/2',
      keyPrefix: 'billing.prod-1',
      bootWaitMs: 0,
      streams: { retentionMs: 30_000, maxPerStream: 50 },
    });
  });

  it('stops the boot on a wrong value, naming the option and never echoing the URL', () => {
    for (const [options, message] of [
      [{ url: '' }, /url must be a redis:\/\/ or rediss:\/\/ URL/],
      [{ url: 'http://user:secret@cache' }, /url must be a redis:\/\/ or rediss:\/\/ URL/],
      [{ url: 'redis://user:secret@[cache' }, /url must be a redis:\/\/ or rediss:\/\/ URL/],
      [{ url: 'redis://cache', keyPrefix: 'a:b' }, /keyPrefix must be 1–64 characters/],
      [{ url: 'redis://cache', keyPrefix: '' }, /keyPrefix must be 1–64 characters/],
      [{ url: 'redis://cache', bootWaitMs: -1 }, /bootWaitMs must be a whole number ≥ 0, got -1/],
      [{ url: 'redis://cache', streams: { eventRetentionMs: 0 } }, /streams.eventRetentionMs must be a whole number ≥ 1/],
      [{ url: 'redis://cache', streams: { maxEventsPerStream: 2.5 } }, /streams.maxEventsPerStream must be a whole number ≥ 1/],
    ] as const) {
      assert.throws(
        () => resolveMcpRedisOptions(options),
        (error: Error) => message.test(error.message) && !error.message.includes('secret'),
        JSON.stringify(options),
      );
    }
  });
});
