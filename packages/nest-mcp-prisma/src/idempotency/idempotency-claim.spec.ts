import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextStep } from './idempotency-claim.js';

const answer = { content: [{ type: 'text', text: '{"ok":true,"data":{"b":1,"a":2}}' }], structuredContent: { ok: true } };
const row = (over: Partial<{ argumentsHash: string; resultJson: string | null; expired: boolean }> = {}) => ({
  argumentsHash: 'h1',
  resultJson: JSON.stringify(answer),
  expired: false,
  ...over,
});

describe('nextStep (what a claim does with the row another call left)', () => {
  it('replays the stored answer, key order and all, for the same arguments', () => {
    const step = nextStep(row(), 'h1');
    assert.equal(step.kind, 'replay');
    assert.equal(JSON.stringify(step.kind === 'replay' && step.result), JSON.stringify(answer));
  });

  it('refuses other arguments, before and after the first call saved its answer', () => {
    assert.deepEqual(nextStep(row(), 'h2'), { kind: 'mismatch' });
    assert.deepEqual(nextStep(row({ resultJson: null }), 'h2'), { kind: 'mismatch' });
  });

  it('frees an expired key whatever its arguments were', () => {
    assert.deepEqual(nextStep(row({ expired: true }), 'h1'), { kind: 'reuse_expired' });
    assert.deepEqual(nextStep(row({ expired: true, argumentsHash: 'other' }), 'h1'), { kind: 'reuse_expired' });
  });

  it('looks again when the row vanished or has no answer yet', () => {
    assert.deepEqual(nextStep(undefined, 'h1'), { kind: 'retry' });
    assert.deepEqual(nextStep(row({ resultJson: null }), 'h1'), { kind: 'retry' });
  });
});
