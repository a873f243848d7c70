import { integerVariable } from '../config/integer-variable.js';

/** Where stream mode keeps what its replicas share, from the environment (injected by {@link STREAMS_CONFIG}), validated at boot. */
export interface StreamsConfig {
  /** Redis for all three backends when set; else PostgreSQL (the app's database). */
  redisUrl?: string;
  /** Prefix of every Redis key and channel, so several apps can share one Redis. */
  keyPrefix: string;
  /** How long an SSE event can be replayed with `Last-Event-ID`. */
  eventRetentionMs: number;
  /** At most this many events kept per stream (Redis `MAXLEN`; the newest stay). */
  maxEventsPerStream: number;
  /** How often expired sessions and old events are deleted from PostgreSQL; 0 = never. */
  cleanupIntervalMs: number;
}

export const STREAMS_CONFIG = Symbol('STREAMS_CONFIG');

/**
 * `REDIS_URL` (shared with the rate limiter), `MCP_STREAMS_KEY_PREFIX` (default `mcp`),
 * `MCP_STREAM_EVENTS_RETENTION_SECONDS` (default 600), `MCP_STREAM_EVENTS_PER_STREAM` (default
 * 1000), `MCP_STREAMS_CLEANUP_SECONDS` (default 60; 0 = off; always off when NODE_ENV=test).
 * A bad value stops the boot, naming the variable.
 */
export function streamsConfigFromEnv(env: NodeJS.ProcessEnv): StreamsConfig {
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) throw new Error(`REDIS_URL must be a redis:// or rediss:// URL, got "${redisUrl}"`);
  const keyPrefix = env.MCP_STREAMS_KEY_PREFIX?.trim() || 'mcp';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(keyPrefix))
    throw new Error(`MCP_STREAMS_KEY_PREFIX must be 1–64 characters of A-Z a-z 0-9 _ - ., got "${keyPrefix}"`);
  return {
    ...(redisUrl ? { redisUrl } : {}),
    keyPrefix,
    eventRetentionMs: integerVariable(env, 'MCP_STREAM_EVENTS_RETENTION_SECONDS', 600, 1) * 1000,
    maxEventsPerStream: integerVariable(env, 'MCP_STREAM_EVENTS_PER_STREAM', 1000, 1),
    cleanupIntervalMs: env.NODE_ENV === 'test' ? 0 : integerVariable(env, 'MCP_STREAMS_CLEANUP_SECONDS', 60, 0) * 1000,
  };
}
