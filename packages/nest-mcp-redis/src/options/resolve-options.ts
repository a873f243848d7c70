import type { McpRedisOptions, ResolvedMcpRedisOptions } from './mcp-redis.options.js';

function whole(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) throw new Error(`McpRedisModule: ${name} must be a whole number ≥ ${min}, got ${value}`);
  return value;
}

/** The options with every default filled; a wrong value stops the boot, naming the option (never echoing the URL: it may hold a password). */
export function resolveMcpRedisOptions(options: McpRedisOptions): ResolvedMcpRedisOptions {
  if (!options.url || !/^rediss?:\/\//.test(options.url) || !URL.canParse(options.url))
    throw new Error('McpRedisModule: url must be a redis:// or rediss:// URL (the Redis server)');
  const keyPrefix = options.keyPrefix ?? 'mcp';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(keyPrefix))
    throw new Error(`McpRedisModule: keyPrefix must be 1–64 characters of A-Z a-z 0-9 _ - ., got "${keyPrefix}"`);
  return {
    url: options.url,
    keyPrefix,
    bootWaitMs: whole('bootWaitMs', options.bootWaitMs ?? 2000, 0),
    streams: {
      retentionMs: whole('streams.eventRetentionMs', options.streams?.eventRetentionMs ?? 600_000, 1),
      maxPerStream: whole('streams.maxEventsPerStream', options.streams?.maxEventsPerStream ?? 1000, 1),
    },
  };
}
