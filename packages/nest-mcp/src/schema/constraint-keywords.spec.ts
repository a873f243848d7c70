import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as classValidator from 'class-validator';
import { CONSTRAINT_KEYWORDS } from './constraint-keywords.js';

describe('CONSTRAINT_KEYWORDS', () => {
  it('names only constraints class-validator really registers (a typo would silently drop a keyword)', () => {
    const registered = new Set(Object.values(classValidator).filter((value) => typeof value === 'string'));
    const unknown = Object.keys(CONSTRAINT_KEYWORDS).filter((name) => !registered.has(name));
    assert.deepEqual(unknown, []);
  });
});
