import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Request } from 'express';
import { headerIdentity } from './header-identity.js';

const request = (headers: Record<string, string | string[]>) => ({ headers }) as unknown as Request;

describe('headerIdentity (an SSO proxy names the person)', () => {
  const identity = headerIdentity({ idHeader: 'X-Auth-User', nameHeader: 'x-auth-name', emailHeader: 'x-auth-email' });

  it('reads the person from the headers, the name falling back to the id', async () => {
    assert.deepEqual(await identity.person(request({ 'x-auth-user': 'u-1', 'x-auth-name': 'Ada', 'x-auth-email': 'ada@example.test' })), {
      id: 'u-1',
      name: 'Ada',
      email: 'ada@example.test',
    });
    assert.deepEqual(await identity.person(request({ 'x-auth-user': ' u-2 ' })), { id: 'u-2', name: 'u-2' });
  });

  it('signs nobody in without the id header, or with a repeated, empty, oversized or control-character one', async () => {
    for (const headers of <Array<Record<string, string | string[]>>>[
      {},
      { 'x-auth-user': '' },
      { 'x-auth-user': ['a', 'b'] },
      { 'x-auth-user': 'x'.repeat(400) },
      { 'x-auth-user': 'a\u0000b' },
    ]) {
      assert.equal(await identity.person(request(headers)), undefined, JSON.stringify(headers));
    }
  });

  it('sends to the page itself to sign in (the proxy intercepts it) unless told otherwise, and checks its header names', () => {
    assert.equal(identity.signInUrl('/admin/approvals/1'), '/admin/approvals/1');
    assert.equal(headerIdentity({ idHeader: 'x-u', signInUrl: (to) => `/sso?rd=${to}` }).signInUrl('/admin'), '/sso?rd=/admin');
    assert.throws(() => headerIdentity({ idHeader: '' }), /idHeader is required/);
    assert.throws(() => headerIdentity({ idHeader: 'x-u', emailHeader: 'bad header' }), /emailHeader must be a header name/);
  });
});
