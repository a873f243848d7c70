import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gcra } from './gcra.js';
import type { RateLimitBucket } from './rate-limit-bucket.js';

const MINUTE = 60_000;
const token: RateLimitBucket = { key: 't', limit: 60, periodMs: MINUTE };
const workspace: RateLimitBucket = { key: 'w', limit: 100, periodMs: MINUTE };
const ms = (n: number) => n * 1000; // gcra works in microseconds

/** Runs requests at the given times (ms) against a fresh state; returns each decision. */
function run(
  buckets: RateLimitBucket[],
  requests: Array<{ at: number; cost: number }>,
  state: (number | undefined)[] = buckets.map(() => undefined),
) {
  return requests.map(({ at, cost }) => {
    const { decision, tats } = gcra(buckets, state, cost, ms(at));
    if (decision.allowed) tats.forEach((tat, i) => (state[i] = tat));
    return decision;
  });
}

describe('gcra', () => {
  it('allows a burst of the whole limit from a full bucket, then refuses', () => {
    const decisions = run(
      [token],
      Array.from({ length: 61 }, () => ({ at: 0, cost: 1 })),
    );
    assert.ok(decisions.slice(0, 60).every((d) => d.allowed));
    // One unit is emitted every second (60 per minute): the 61st passes in exactly 1 s.
    assert.deepEqual(decisions[60], { allowed: false, bucket: 0, retryAfterMs: 1000 });
  });

  it('refills continuously: one unit per period / limit', () => {
    const decisions = run(
      [token],
      [
        ...Array.from({ length: 60 }, () => ({ at: 0, cost: 1 })),
        { at: 999, cost: 1 },
        { at: 1000, cost: 1 },
        { at: 1001, cost: 1 },
        { at: 5000, cost: 4 },
        { at: 5000, cost: 1 },
      ],
    );
    assert.deepEqual(
      decisions.slice(60).map((d) => d.allowed),
      [false, true, false, true, false],
    );
    assert.deepEqual(decisions[60], { allowed: false, bucket: 0, retryAfterMs: 1 });
  });

  it('charges the cost: a cost-5 call needs 5 units, and says how long until 5 are there', () => {
    const decisions = run(
      [token],
      [
        { at: 0, cost: 58 },
        { at: 0, cost: 5 },
        { at: 3000, cost: 5 },
      ],
    );
    assert.deepEqual(decisions[1], { allowed: false, bucket: 0, retryAfterMs: 3000 });
    assert.equal(decisions[2].allowed, true);
  });

  it('charges a cost above the whole limit as the whole limit (it could never pass otherwise)', () => {
    const small: RateLimitBucket = { key: 's', limit: 3, periodMs: MINUTE };
    const decisions = run(
      [small],
      [
        { at: 0, cost: 10 },
        { at: 0, cost: 1 },
      ],
    );
    assert.equal(decisions[0].allowed, true);
    assert.deepEqual(decisions[1], { allowed: false, bucket: 0, retryAfterMs: 20_000 });
  });

  it('is all or nothing over several buckets: a refusal charges none of them', () => {
    const state: (number | undefined)[] = [undefined, undefined];
    run([token, workspace], [{ at: 0, cost: 60 }], state);
    const before = [...state];
    const [refused] = run([token, workspace], [{ at: 0, cost: 1 }], state);
    assert.deepEqual(refused, { allowed: false, bucket: 0, retryAfterMs: 1000 });
    assert.deepEqual(state, before, 'the workspace bucket was not charged for the refused request');
  });

  it('names the bucket that frees up last when several refuse', () => {
    const state = [ms(MINUTE), ms(MINUTE + 6_000)]; // token empty (1 s per unit), workspace empty and 6 s in debt
    const [decision] = run([token, workspace], [{ at: 0, cost: 1 }], state);
    assert.deepEqual(decision, { allowed: false, bucket: 1, retryAfterMs: 6_600 });
  });

  it('treats a TAT in the past as a full bucket', () => {
    const [decision] = run([token], [{ at: 10 * MINUTE, cost: 60 }], [ms(0)]);
    assert.equal(decision.allowed, true);
  });
});
