/** One bucket a request draws from: `limit` units per `periodMs`, refilled continuously. */
export interface RateLimitBucket {
  /** Store key, e.g. `rl:token:<token id>`; the same key on every replica is one bucket. */
  key: string;
  limit: number;
  periodMs: number;
}

export type RateLimitDecision =
  | { allowed: true }
  /** `bucket`: index of the refusing bucket that frees up last; `retryAfterMs`: when the same request would pass. */
  | { allowed: false; bucket: number; retryAfterMs: number };

/**
 * Where the buckets live (both stores of this package). `consume` is all or nothing: the cost is
 * taken from every bucket, or, when one of them cannot pay it, from none, so a refused request
 * never eats into another limit.
 */
export interface RateLimitBuckets {
  consume(buckets: readonly RateLimitBucket[], cost: number): Promise<RateLimitDecision>;
}
