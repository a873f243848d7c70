import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideTrackingKey, normalizeTrackingKey } from './tracking-key.js';

const c = (value: string, confidence: number, source = 'ocr') => ({ value, source, confidence });

describe('decideTrackingKey', () => {
  it('identifies the payment by its only confident candidate, whatever the unsure ones say', () => {
    assert.deepEqual(decideTrackingKey([c('LOW', 0.3), c(' KEY-1 ', 0.8), c('ALSO-LOW', 0.79)]), { kind: 'identified', value: 'KEY-1' });
  });

  it('takes confident readings of one key (case and spaces aside) as one, keeping the most confident reading', () => {
    assert.deepEqual(decideTrackingKey([c('abc 123', 0.85), c('ABC123', 0.99, 'email')]), { kind: 'identified', value: 'ABC123' });
  });

  it('is ambiguous when confident candidates differ, listing every distinct key, most confident first', () => {
    const decision = decideTrackingKey([c('B', 0.81), c('A', 0.95), c('C', 0.1), c('a', 0.2)]);
    assert.equal(decision.kind, 'ambiguous');
    assert.equal(decision.kind === 'ambiguous' && decision.reason, 'conflicting');
    assert.deepEqual(decision.kind === 'ambiguous' && decision.candidates.map((x) => x.value), ['A', 'B', 'C']);
  });

  it('is ambiguous when no candidate reaches the threshold, or there is none', () => {
    assert.equal((decideTrackingKey([c('A', 0.79)]) as { reason: string }).reason, 'low_confidence');
    assert.equal((decideTrackingKey([]) as { reason: string }).reason, 'none');
    assert.equal((decideTrackingKey([c('   ', 1)]) as { reason: string }).reason, 'none');
  });

  it('normalizes keys for comparison only', () => {
    assert.equal(normalizeTrackingKey(' 2606 0401\t7724i '), '26060401' + '7724I');
  });
});
