import type { McpExtensionOptions } from '@nest-mcp/core';
import { RedisConnection } from './connection/redis-connection.js';
import { MCP_REDIS_OPTIONS, type ResolvedMcpRedisOptions } from './options/mcp-redis.options.js';
import { RedisEventStore } from './streams/redis-event.store.js';
import { RedisMessageBus } from './streams/redis-message.bus.js';
import { RedisSessionStore } from './streams/redis-session.store.js';

/**
 * Stream mode's extension points (`McpModule.forRoot({ streams: true, ...mcpRedisStreamExtensions() })`),
 * shared by every replica through `McpRedisModule`'s Redis: sessions (hashes that expire with the
 * session), replayable events (one Redis Stream per SSE stream, bounded by `McpRedisModule`'s
 * `streams` option) and the bus between replicas (pub/sub, on a second connection per replica).
 */
export function mcpRedisStreamExtensions(): Required<Pick<McpExtensionOptions, 'sessionStore' | 'eventStore' | 'messageBus'>> {
  const inject = [RedisConnection, MCP_REDIS_OPTIONS];
  return {
    sessionStore: { useFactory: (redis: RedisConnection) => new RedisSessionStore(redis), inject },
    eventStore: {
      useFactory: (redis: RedisConnection, options: ResolvedMcpRedisOptions) => new RedisEventStore(redis, options.streams),
      inject,
    },
    messageBus: { useFactory: (redis: RedisConnection) => new RedisMessageBus(redis), inject },
  };
}
