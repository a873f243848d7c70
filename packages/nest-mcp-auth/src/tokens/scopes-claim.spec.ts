import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scopesOfClaim } from './scopes-claim.js';

describe('scopesOfClaim', () => {
  it('reads a space-separated string (scope, Entra ID scp) and an array (Okta scp)', () => {
    assert.deepEqual(scopesOfClaim('billing:read  billing:write'), ['billing:read', 'billing:write']);
    assert.deepEqual(scopesOfClaim(['billing:read', 'billing:write']), ['billing:read', 'billing:write']);
  });

  it('keeps each scope once and drops what is no scope', () => {
    assert.deepEqual(scopesOfClaim('a a b'), ['a', 'b']);
    assert.deepEqual(scopesOfClaim(['a', 7, null, '', { b: 1 }, 'c']), ['a', 'c']);
  });

  it('grants nothing for a missing or odd claim', () => {
    for (const claim of [undefined, null, 42, true, {}, '', '   ']) assert.deepEqual(scopesOfClaim(claim), []);
  });
});
