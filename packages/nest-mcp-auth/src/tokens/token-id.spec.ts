import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jwtTokenId } from './token-id.js';

describe('jwtTokenId', () => {
  it('is the issuer and subject, plus the jti when there is one', () => {
    assert.equal(jwtTokenId({ iss: 'https://idp.test', sub: 'user-1' }), 'jwt:https://idp.test#user-1');
    assert.equal(jwtTokenId({ iss: 'https://idp.test', sub: 'user-1', jti: 't-7' }), 'jwt:https://idp.test#user-1#t-7');
    assert.equal(jwtTokenId({ iss: 'https://idp.test', sub: 'user-1', jti: 7 }), 'jwt:https://idp.test#user-1');
  });

  it('never lets a subject pass for a subject and a jti', () => {
    const crafted = jwtTokenId({ iss: 'https://idp.test', sub: 'user-1#t-7' });
    assert.notEqual(crafted, jwtTokenId({ iss: 'https://idp.test', sub: 'user-1', jti: 't-7' }));
    assert.equal(crafted, 'jwt:https://idp.test#user-1%23t-7');
  });
});
