import { Logger, Module } from '@nestjs/common';
import { MemoryRateLimitStore, RedisRateLimitStore } from '@nest-mcp/redis';
import { RateLimitCostPolicy } from './rate-limit-cost.policy.js';
import { RATE_LIMIT_CONFIG, type RateLimitConfig } from './rate-limit.config.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RATE_LIMIT_STORE, type RateLimitStore } from './store/rate-limit.store.js';
import { redactUrl } from '../common/redact-url.js';

/** How long the boot waits for Redis before starting without it (fail open, see the store). */
const REDIS_BOOT_WAIT_MS = 2_000;

/**
 * Rate limits per token and per workspace, with a cost per method and tool (docs/contract.md §1.5: 429 with
 * `Retry-After` and a JSON-RPC error body). Counters live in Redis when `REDIS_URL` is set, so
 * every replica enforces one limit (docs/contract.md §1.6: nothing only in one process's memory); without it,
 * in this process (one process only).
 *
 * The guard is provided and exported here; the application registers it as a global guard after
 * the identity guards (`app.guards.ts`), so authentication, workspace and scope checks run first
 * (proven in `test/e2e/rate-limit.e2e-spec.ts`).
 */
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORE,
      inject: [RATE_LIMIT_CONFIG],
      useFactory: async (config: RateLimitConfig): Promise<RateLimitStore> => {
        const logger = new Logger('RateLimit');
        if (!config.enabled) {
          logger.log('Rate limits are off (RATE_LIMIT_DISABLED)');
          return new MemoryRateLimitStore();
        }
        const limits = `${config.tokenLimit} units/min per token, ${config.workspaceLimit} per workspace`;
        if (!config.redisUrl) {
          logger.log(`Rate limits: ${limits}, counted in this process (set REDIS_URL to share them across replicas)`);
          return new MemoryRateLimitStore();
        }
        const store = new RedisRateLimitStore({ url: config.redisUrl, timeoutMs: config.redisTimeoutMs });
        await store.connect(REDIS_BOOT_WAIT_MS);
        logger.log(
          `Rate limits: ${limits}, shared through Redis at ${redactUrl(config.redisUrl, 'REDIS_URL')} (keys ${config.keyPrefix}:*)`,
        );
        return store;
      },
    },
    RateLimitCostPolicy,
    RateLimitGuard,
  ],
  // The admin pages count failed sign-ins in the same store (shared by replicas through Redis).
  exports: [RATE_LIMIT_STORE, RateLimitGuard],
})
export class RateLimitModule {}
