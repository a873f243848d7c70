import type { RateLimitBuckets } from '@nest-mcp/redis';

export type { RateLimitBucket, RateLimitDecision } from '@nest-mcp/redis';

/**
 * Where the app's rate-limit buckets live: one of @nest-mcp/redis's stores (`RedisRateLimitStore`,
 * shared by every replica, or `MemoryRateLimitStore` in this process). `consume` is all or nothing.
 */
export type RateLimitStore = RateLimitBuckets;

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');
