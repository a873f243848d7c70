import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { idempotencyConfigFromEnv } from './idempotency.config.js';

describe('idempotencyConfigFromEnv', () => {
  it('keeps answers 24 hours and cleans up hourly by default', () => {
    assert.deepEqual(idempotencyConfigFromEnv({}), { ttlSeconds: 86_400, cleanupIntervalMs: 3_600_000 });
  });

  it('reads IDEMPOTENCY_TTL_HOURS (fractions too) and IDEMPOTENCY_CLEANUP_MINUTES (0 = off)', () => {
    assert.deepEqual(idempotencyConfigFromEnv({ IDEMPOTENCY_TTL_HOURS: '0.5', IDEMPOTENCY_CLEANUP_MINUTES: '0' }), {
      ttlSeconds: 1800,
      cleanupIntervalMs: 0,
    });
    assert.equal(idempotencyConfigFromEnv({ IDEMPOTENCY_TTL_HOURS: ' 48 ' }).ttlSeconds, 172_800);
  });

  it('never runs the cleanup timer under NODE_ENV=test', () => {
    assert.equal(idempotencyConfigFromEnv({ NODE_ENV: 'test', IDEMPOTENCY_CLEANUP_MINUTES: '5' }).cleanupIntervalMs, 0);
  });

  it('refuses values that would silently change behaviour', () => {
    for (const bad of ['0', '-1', 'abc', '24h']) {
      assert.throws(() => idempotencyConfigFromEnv({ IDEMPOTENCY_TTL_HOURS: bad }), /IDEMPOTENCY_TTL_HOURS must be a number > 0/);
    }
    assert.throws(
      () => idempotencyConfigFromEnv({ IDEMPOTENCY_CLEANUP_MINUTES: '-5' }),
      /IDEMPOTENCY_CLEANUP_MINUTES must be a number ≥ 0/,
    );
  });
});
