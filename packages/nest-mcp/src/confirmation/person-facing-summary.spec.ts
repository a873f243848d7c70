import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { personFacingSummary } from './person-facing-summary.js';

describe('personFacingSummary', () => {
  it("keeps the lead and the side effects, drops the model's guidance", () => {
    const description =
      'Closes a ticket. When to use: the customer confirmed. Never use for: spam. Side effects: the customer is emailed. ' +
      'Success criteria: status closed. Fallback: ask the user.';
    assert.equal(personFacingSummary(description), 'Closes a ticket. Side effects: the customer is emailed.');
  });

  it('shows a description without the convention whole, and nothing for none', () => {
    assert.equal(personFacingSummary('Deletes the draft.'), 'Deletes the draft.');
    assert.equal(personFacingSummary(undefined), '');
  });
});
