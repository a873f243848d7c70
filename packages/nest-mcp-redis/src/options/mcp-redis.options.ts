import type { StreamEventLimits } from '../streams/stream-limits.js';

/** `McpRedisModule.forRoot()` / `forRootAsync()`. */
export interface McpRedisOptions {
  /** The Redis server: `redis://` or `rediss://` (TLS), with the user and password if it wants them. */
  url: string;
  /**
   * The start of every key and pub/sub channel (`<keyPrefix>:session:<id>`, `<keyPrefix>:bus:<channel>`, …):
   * applications (or environments) sharing one Redis use their own. Default: `mcp`.
   */
  keyPrefix?: string;
  /**
   * How long the module's start waits for Redis to answer before it logs a warning and goes on
   * (reconnecting never stops; the layer's own start still waits for its bus subscriptions in
   * stream mode). 0: do not wait. Default: 2000.
   */
  bootWaitMs?: number;
  /** Stream mode's replayable events (`mcpRedisStreamExtensions()`). */
  streams?: {
    /** How long an SSE event can be replayed with `Last-Event-ID`. Default: 10 min. */
    eventRetentionMs?: number;
    /** At most this many events kept per stream (Redis `MAXLEN`; the newest stay). Default: 1000. */
    maxEventsPerStream?: number;
  };
}

/** The options with every default filled. */
export interface ResolvedMcpRedisOptions {
  url: string;
  keyPrefix: string;
  bootWaitMs: number;
  streams: StreamEventLimits;
}

export const MCP_REDIS_OPTIONS = Symbol('MCP_REDIS_OPTIONS');
