import { createHash } from 'node:crypto';
import type { RateLimitBucket, RateLimitStore } from '../rate-limit/store/rate-limit.store.js';

/** Failed sign-ins are counted over this window (a bucket of N refills one every WINDOW / N). */
const WINDOW_MS = 15 * 60_000;
/** Failures of one account from one address before that pair is refused: locks the guesser only. */
const MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS = 10;
/** Failures from one address over all accounts before the address is refused (password spraying). */
const MAX_FAILURES_PER_ADDRESS = 50;
/** Failures of one account from every address before its sign-ins are slowed down (never refused). */
const FAILURES_PER_ACCOUNT_BEFORE_DELAY = 20;
/** The slow-down: small enough for the real user, enough to cap a distributed guesser's rate. */
export const ACCOUNT_DELAY_MS = 1_000;

export type LoginVerdict = { locked: true; retryAfterMs: number } | { locked: false; delayMs: number };

/**
 * Sign-in throttling of the admin pages, in the shared rate-limit store (Redis with REDIS_URL, so
 * every replica counts the same failures; this process's memory otherwise). Locks are per address
 * and account, so guessing from one address never locks the real user out from theirs; failures of
 * an account from many addresses only add a small delay. The store keeps one number per bucket and
 * forgets a bucket once it is full again, so a flood of new keys neither grows memory for long nor
 * pushes out a live lock.
 */
export class PanelLoginThrottle {
  constructor(
    private readonly store: RateLimitStore,
    private readonly keyPrefix: string,
  ) {}

  /** Whether this address may try this account now, and how long to hold the attempt first. */
  async check(address: string, email: string): Promise<LoginVerdict> {
    const [lock, account] = await Promise.all([
      this.store.consume([this.pair(address, email), this.address(address)].map(peekBucket), 0),
      this.store.consume([peekBucket(this.account(email))], 0),
    ]);
    if (!lock.allowed) return { locked: true, retryAfterMs: lock.retryAfterMs };
    return { locked: false, delayMs: account.allowed ? 0 : ACCOUNT_DELAY_MS };
  }

  /** Counts a failed sign-in against the pair, the address and the account. */
  async failed(address: string, email: string): Promise<void> {
    // One call per bucket: the store is all or nothing, and a full bucket must not spare the others.
    await Promise.all(
      [this.pair(address, email), this.address(address), this.account(email)].map((bucket) => this.store.consume([bucket], 1)),
    );
  }

  private pair(address: string, email: string): RateLimitBucket {
    return {
      key: `${this.keyPrefix}:panel-login:pair:${digest(`${address}\n${email}`)}`,
      limit: MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS,
      periodMs: WINDOW_MS,
    };
  }

  private address(address: string): RateLimitBucket {
    return { key: `${this.keyPrefix}:panel-login:address:${digest(address)}`, limit: MAX_FAILURES_PER_ADDRESS, periodMs: WINDOW_MS };
  }

  private account(email: string): RateLimitBucket {
    return { key: `${this.keyPrefix}:panel-login:account:${digest(email)}`, limit: FAILURES_PER_ACCOUNT_BEFORE_DELAY, periodMs: WINDOW_MS };
  }
}

/**
 * The same bucket, asked at cost 0 over a period one emission shorter: GCRA refuses that exactly
 * when one more failure would be refused by the real bucket, and charges nothing either way. So
 * the store answers "is it locked, and until when" without a read method of its own.
 */
function peekBucket(bucket: RateLimitBucket): RateLimitBucket {
  return { ...bucket, periodMs: bucket.periodMs - bucket.periodMs / bucket.limit };
}

/** Fixed-size keys whatever the address or email sent (and no email in the store in clear). */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 22);
}
