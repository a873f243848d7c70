import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { argumentsHash, canonicalJson } from './arguments-hash.js';

describe('argumentsHash', () => {
  it('ignores key order at every depth, and undefined members', () => {
    assert.equal(
      argumentsHash({ a: 1, b: { c: [1, { d: 2, e: 3 }] } }),
      argumentsHash({ b: { c: [1, { e: 3, d: 2 }] }, a: 1, z: undefined }),
    );
    assert.equal(canonicalJson({ b: 1, a: [true, null] }), '{"a":[true,null],"b":1}');
  });

  it('tells different arguments apart, including array order and types', () => {
    assert.notEqual(argumentsHash({ a: [1, 2] }), argumentsHash({ a: [2, 1] }));
    assert.notEqual(argumentsHash({ a: 1 }), argumentsHash({ a: '1' }));
    assert.equal(argumentsHash(undefined), argumentsHash({}));
  });
});
