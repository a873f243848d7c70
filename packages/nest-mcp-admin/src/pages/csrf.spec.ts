import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CSRF_COOKIE, csrfAccepted, sameSecret } from './csrf.js';

const TOKEN = 'a'.repeat(43);
const ORIGIN = 'https://admin.example.test';
const post = (field: unknown, cookieValue: string | undefined, origin?: string) => ({
  headers: { ...(cookieValue !== undefined ? { cookie: `other=1; ${CSRF_COOKIE}=${cookieValue}` } : {}), ...(origin ? { origin } : {}) },
  body: field === undefined ? {} : { _csrf: field },
});

describe('admin pages CSRF check (double submit + Origin)', () => {
  it('accepts the form whose token is the cookie, from the public origin, from no origin, or Origin: null (no-referrer pages)', () => {
    assert.equal(csrfAccepted(post(TOKEN, TOKEN), ORIGIN), true);
    assert.equal(csrfAccepted(post(TOKEN, TOKEN, ORIGIN), ORIGIN), true);
    assert.equal(csrfAccepted(post(TOKEN, TOKEN, 'null'), ORIGIN), true);
  });

  it('refuses a missing, empty, different or non-text token, a missing cookie, and another origin', () => {
    for (const [field, cookieValue] of [
      [undefined, TOKEN],
      ['', ''],
      [`${TOKEN}x`, TOKEN],
      [TOKEN.slice(1), TOKEN],
      [[TOKEN], TOKEN],
      [TOKEN, undefined],
    ] as Array<[unknown, string | undefined]>) {
      assert.equal(csrfAccepted(post(field, cookieValue), ORIGIN), false, JSON.stringify([field, cookieValue]));
    }
    assert.equal(csrfAccepted(post(TOKEN, TOKEN, 'https://evil.test'), ORIGIN), false);
    assert.equal(csrfAccepted(post(TOKEN, TOKEN, 'http://admin.example.test'), ORIGIN), false, 'another scheme is another origin');
  });

  it('compares secrets of any length without throwing', () => {
    assert.equal(sameSecret('abc', 'abc'), true);
    assert.equal(sameSecret('abc', 'abcd'), false);
    assert.equal(sameSecret(undefined, undefined), false);
  });
});
