import type { OnModuleDestroy } from '@nestjs/common';
import { gcra } from './gcra.js';
import type { RateLimitBucket, RateLimitBuckets, RateLimitDecision } from './rate-limit-bucket.js';

/**
 * Buckets in this process's memory: right for one process, and the stand-in while Redis is
 * unreachable. Replicas each keep their own, so N replicas allow N times the limit.
 */
export class MemoryRateLimitStore implements RateLimitBuckets, OnModuleDestroy {
  private readonly tats = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  /** `now` in milliseconds (tests pass a fake clock). */
  constructor(private readonly now: () => number = () => performance.timeOrigin + performance.now()) {
    // A bucket whose TAT is past is full again: forgetting it changes nothing, and keeps the map
    // as small as the set of callers active in the last period.
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  consume(buckets: readonly RateLimitBucket[], cost: number): Promise<RateLimitDecision> {
    const nowUs = this.now() * 1000;
    const { decision, tats } = gcra(
      buckets,
      buckets.map((bucket) => this.tats.get(bucket.key)),
      cost,
      nowUs,
    );
    if (decision.allowed) buckets.forEach((bucket, i) => this.tats.set(bucket.key, tats[i]));
    return Promise.resolve(decision);
  }

  /** Number of buckets held (for tests). */
  get size(): number {
    return this.tats.size;
  }

  sweep(): void {
    const nowUs = this.now() * 1000;
    for (const [key, tat] of this.tats) if (tat <= nowUs) this.tats.delete(key);
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }
}
