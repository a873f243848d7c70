import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { streamsConfigFromEnv } from './streams.config.js';

describe('streamsConfigFromEnv', () => {
  it('defaults: PostgreSQL, prefix mcp, 10 minutes and 1000 events per stream, cleanup every minute (off in tests)', () => {
    assert.deepEqual(streamsConfigFromEnv({}), {
      keyPrefix: 'mcp',
      eventRetentionMs: 600_000,
      maxEventsPerStream: 1000,
      cleanupIntervalMs: 60_000,
    });
    assert.equal(streamsConfigFromEnv({ NODE_ENV: 'test' }).cleanupIntervalMs, 0);
  });

  it('reads REDIS_URL and the limits', () => {
    const config = streamsConfigFromEnv({
      REDIS_URL: ' redis://cache:6379 ',
      MCP_STREAMS_KEY_PREFIX: 'billing',
      MCP_STREAM_EVENTS_RETENTION_SECONDS: '30',
      MCP_STREAM_EVENTS_PER_STREAM: '10',
      MCP_STREAMS_CLEANUP_SECONDS: '0',
    });
    assert.deepEqual(config, {
      redisUrl: 'redis://cache:6379',
      keyPrefix: 'billing',
      eventRetentionMs: 30_000,
      maxEventsPerStream: 10,
      cleanupIntervalMs: 0,
    });
  });

  for (const [name, value, pattern] of [
    ['REDIS_URL', 'http://cache', /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    ['MCP_STREAMS_KEY_PREFIX', 'a b', /MCP_STREAMS_KEY_PREFIX must be 1–64 characters/],
    ['MCP_STREAM_EVENTS_RETENTION_SECONDS', '0', /MCP_STREAM_EVENTS_RETENTION_SECONDS must be an integer ≥ 1, got "0"/],
    ['MCP_STREAM_EVENTS_PER_STREAM', '1.5', /MCP_STREAM_EVENTS_PER_STREAM must be an integer ≥ 1/],
    ['MCP_STREAMS_CLEANUP_SECONDS', '-1', /MCP_STREAMS_CLEANUP_SECONDS must be an integer ≥ 0/],
  ] as const) {
    it(`stops the boot on a bad ${name}, naming it`, () => {
      assert.throws(() => streamsConfigFromEnv({ [name]: value }), pattern);
    });
  }
});
