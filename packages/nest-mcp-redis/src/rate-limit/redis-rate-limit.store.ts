import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { createClient, type RedisClientType } from '@redis/client';
import { redactUrl } from '../connection/redact-url.js';
import { runScript } from '../connection/redis-script.js';
import { MemoryRateLimitStore } from './memory-rate-limit.store.js';
import type { RateLimitBucket, RateLimitBuckets, RateLimitDecision } from './rate-limit-bucket.js';

/**
 * The GCRA of `gcra.ts` over every bucket of one request, in one script: Redis runs a script
 * atomically, so two replicas charging the same bucket never both see the old value, and a
 * request refused by one bucket is charged to none. The clock is Redis's (`TIME`), so replicas
 * with drifting clocks still agree. TATs are integer microseconds (a limit so high that one unit
 * is under a microsecond, e.g. 10^9 a minute, is effectively unlimited); a key
 * expires when its bucket is full again, so idle callers cost no memory.
 *
 * KEYS: bucket keys. ARGV[1]: cost; ARGV[2i], ARGV[2i+1]: limit and period (µs) of KEYS[i].
 * Reply: {1} when allowed; {0, i, µs to wait} when bucket i (1-based) refuses.
 */
const GCRA_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local cost = tonumber(ARGV[1])
local tats = {}
local refused, wait = 0, 0
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[2 * i])
  local period = tonumber(ARGV[2 * i + 1])
  local tat = math.max(tonumber(redis.call('GET', key) or now), now) + math.min(cost, limit) * (period / limit)
  local over = tat - now - period
  if over > 0 and over > wait then
    refused, wait = i, over
  end
  tats[i] = tat
end
if refused > 0 then
  return {0, refused, math.ceil(wait)}
end
for i, key in ipairs(KEYS) do
  redis.call('SET', key, string.format('%.0f', tats[i]), 'PX', math.max(1, math.ceil((tats[i] - now) / 1000)))
end
return {1}
`;

export interface RedisRateLimitStoreOptions {
  /** `redis://` or `rediss://`. The store opens a connection of its own (its timeouts are its own). */
  url: string;
  /** A Redis answer slower than this counts as a failure. */
  timeoutMs: number;
  /** Where requests are counted while Redis is unreachable. Default: a `MemoryRateLimitStore`. */
  fallback?: RateLimitBuckets;
  /** After a failure, how long requests skip Redis before trying it again. Default: 1000. */
  retryAfterFailureMs?: number;
}

/**
 * Buckets shared by every replica through Redis. When Redis cannot answer (down, unreachable,
 * slower than the timeout) the limiter **fails open**, to this process's own buckets: requests
 * keep being served, each replica still stops a runaway token on its own, and a warning is
 * logged (at most once a minute while it lasts, and once when Redis answers again). An outage of
 * the limiter's store must not become an outage of the API. Keys are the buckets' own (give them
 * a prefix of your application's). Call `connect()` once at boot; Nest closes it at shutdown
 * (`onModuleDestroy`) when it is a provider, otherwise call that yourself.
 */
export class RedisRateLimitStore implements RateLimitBuckets, OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly client: RedisClientType;
  private readonly fallback: RateLimitBuckets;
  private readonly retryAfterFailureMs: number;
  private skipUntil = 0;
  private degradedSince?: number;
  private lastWarning = 0;

  constructor(private readonly options: RedisRateLimitStoreOptions) {
    this.fallback = options.fallback ?? new MemoryRateLimitStore();
    this.retryAfterFailureMs = options.retryAfterFailureMs ?? 1000;
    this.client = createClient({
      url: options.url,
      // Commands while disconnected fail at once (→ fallback) instead of queueing behind requests.
      disableOfflineQueue: true,
      commandOptions: { timeout: options.timeoutMs },
      socket: {
        connectTimeout: Math.max(options.timeoutMs, 1000),
        reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2000) + Math.floor(Math.random() * 100),
      },
    });
    // Without a listener an 'error' event would crash the process.
    this.client.on('error', (error: Error) => this.degraded(error.message));
  }

  /** Starts connecting; waits up to `waitMs` for Redis, then goes on (degraded) without it. */
  async connect(waitMs: number): Promise<void> {
    const connecting = this.client.connect().then(
      () => undefined,
      (error: Error) => this.degraded(error.message),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([connecting, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    if (!this.client.isReady) this.degraded(`no connection after ${waitMs} ms`);
  }

  /** Whether Redis answers now (else requests are counted by the fallback). */
  get connected(): boolean {
    return this.client.isReady;
  }

  /** Takes `cost` from every bucket, or from none (see `RateLimitDecision`); in the fallback while Redis cannot answer. */
  async consume(buckets: readonly RateLimitBucket[], cost: number): Promise<RateLimitDecision> {
    if (this.client.isReady && Date.now() >= this.skipUntil) {
      try {
        const decision = parseReply(await withTimeout(this.run(buckets, cost), this.options.timeoutMs));
        this.recovered();
        return decision;
      } catch (error) {
        this.skipUntil = Date.now() + this.retryAfterFailureMs;
        this.degraded((error as Error).message);
      }
    } else {
      this.degraded('not connected');
    }
    return this.fallback.consume(buckets, cost);
  }

  async onModuleDestroy(): Promise<void> {
    if (this.client.isOpen) this.client.destroy();
    await (this.fallback as Partial<OnModuleDestroy>).onModuleDestroy?.();
  }

  private run(buckets: readonly RateLimitBucket[], cost: number): Promise<unknown> {
    const keys = buckets.map((bucket) => bucket.key);
    return runScript(this.client, GCRA_SCRIPT, keys, [
      String(cost),
      ...buckets.flatMap((bucket) => [String(bucket.limit), String(bucket.periodMs * 1000)]),
    ]);
  }

  private degraded(reason: string): void {
    const now = Date.now();
    if (this.degradedSince === undefined) this.degradedSince = now;
    if (now - this.lastWarning < 60_000) return;
    this.lastWarning = now;
    this.logger.warn(
      `Redis at ${redactUrl(this.options.url)} failed (${reason}): rate limits fail open to this process's ` +
        'own counters (each replica enforces the limits alone) until it answers again',
    );
  }

  private recovered(): void {
    if (this.degradedSince === undefined) return;
    const seconds = Math.round((Date.now() - this.degradedSince) / 1000);
    this.degradedSince = undefined;
    this.lastWarning = 0;
    this.logger.log(`Redis at ${redactUrl(this.options.url)} answers again after ${seconds} s: rate limits are shared again`);
  }
}

/**
 * node-redis times a command out only until it is written; once sent it waits for the reply for as
 * long as the connection lives (so that replies stay in order). A request must not wait on a Redis
 * that stopped answering: past `ms` it goes on without the answer, which is read and dropped later.
 */
function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function parseReply(reply: unknown): RateLimitDecision {
  if (!Array.isArray(reply) || typeof reply[0] !== 'number') throw new Error(`unexpected rate-limit script reply ${JSON.stringify(reply)}`);
  if (reply[0] === 1) return { allowed: true };
  return { allowed: false, bucket: Number(reply[1]) - 1, retryAfterMs: Math.ceil(Number(reply[2]) / 1000) };
}
