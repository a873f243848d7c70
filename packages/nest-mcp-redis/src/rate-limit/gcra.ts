import type { RateLimitBucket, RateLimitDecision } from './rate-limit-bucket.js';

/**
 * GCRA (generic cell rate algorithm), the token bucket kept as one number per bucket: its
 * "theoretical arrival time" (TAT, microseconds). A bucket of `limit` units per `period` emits one
 * unit every `period / limit`; a request of cost `c` moves the TAT forward by `c` emissions and
 * passes while the TAT stays within one period of now. So a full bucket allows a burst of `limit`,
 * then a steady `limit` per period, and a refusal knows exactly when the request would pass.
 * A cost above the whole limit is charged as the whole limit (else it could never pass).
 *
 * `redis-rate-limit.store.ts` runs the same arithmetic in Lua; this is the in-memory version and
 * the reference the unit specs hold both to.
 */
export function gcra(
  buckets: readonly RateLimitBucket[],
  storedTats: readonly (number | undefined)[],
  cost: number,
  nowUs: number,
): { decision: RateLimitDecision; tats: number[] } {
  const tats: number[] = [];
  let refused = -1;
  let wait = 0;
  buckets.forEach((bucket, i) => {
    const periodUs = bucket.periodMs * 1000;
    const tat = Math.max(storedTats[i] ?? nowUs, nowUs) + Math.min(cost, bucket.limit) * (periodUs / bucket.limit);
    const over = tat - nowUs - periodUs;
    if (over > 0 && over > wait) {
      refused = i;
      wait = over;
    }
    tats.push(tat);
  });
  if (refused >= 0) return { decision: { allowed: false, bucket: refused, retryAfterMs: Math.ceil(wait / 1000) }, tats: [] };
  return { decision: { allowed: true }, tats };
}
