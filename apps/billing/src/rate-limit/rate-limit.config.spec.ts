import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rateLimitConfigFromEnv } from './rate-limit.config.js';

describe('rateLimitConfigFromEnv', () => {
  it('is on, in memory, with generous limits by default', () => {
    assert.deepEqual(rateLimitConfigFromEnv({}), {
      enabled: true,
      tokenLimit: 1200,
      workspaceLimit: 6000,
      periodMs: 60_000,
      costs: { default: 1, read: 1, write: 5, destructive: 10 },
      keyPrefix: 'rl',
      redisTimeoutMs: 250,
    });
  });

  it('reads every variable', () => {
    const config = rateLimitConfigFromEnv({
      RATE_LIMIT_DISABLED: 'false',
      RATE_LIMIT_TOKEN_PER_MINUTE: ' 60 ',
      RATE_LIMIT_WORKSPACE_PER_MINUTE: '300',
      RATE_LIMIT_COST_DEFAULT: '0',
      RATE_LIMIT_COST_READ: '2',
      RATE_LIMIT_COST_WRITE: '6',
      RATE_LIMIT_COST_DESTRUCTIVE: '20',
      REDIS_URL: 'redis://:secret@cache:6379/2',
      RATE_LIMIT_KEY_PREFIX: 'billing-rl',
      RATE_LIMIT_REDIS_TIMEOUT_MS: '100',
    });
    assert.deepEqual(config, {
      enabled: true,
      tokenLimit: 60,
      workspaceLimit: 300,
      periodMs: 60_000,
      costs: { default: 0, read: 2, write: 6, destructive: 20 },
      redisUrl: 'redis://:secret@cache:6379/2',
      keyPrefix: 'billing-rl',
      redisTimeoutMs: 100,
    });
    assert.equal(rateLimitConfigFromEnv({ RATE_LIMIT_DISABLED: 'true' }).enabled, false);
    assert.equal(rateLimitConfigFromEnv({ RATE_LIMIT_DISABLED: '1' }).enabled, false);
  });

  it('refuses values that would silently refuse everyone, or no one', () => {
    for (const bad of ['0', '-1', '1.5', 'abc', '60/min']) {
      assert.throws(
        () => rateLimitConfigFromEnv({ RATE_LIMIT_TOKEN_PER_MINUTE: bad }),
        /RATE_LIMIT_TOKEN_PER_MINUTE must be an integer ≥ 1/,
      );
    }
    assert.throws(() => rateLimitConfigFromEnv({ RATE_LIMIT_COST_WRITE: '-5' }), /RATE_LIMIT_COST_WRITE must be an integer ≥ 0/);
    assert.throws(() => rateLimitConfigFromEnv({ RATE_LIMIT_DISABLED: 'maybe' }), /RATE_LIMIT_DISABLED must be true or false/);
    assert.throws(() => rateLimitConfigFromEnv({ REDIS_URL: '127.0.0.1:6379' }), /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
  });
});
