import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { safeReturnPath } from './panel-http.js';

describe('panel sign-in', () => {
  it('returns after sign-in only to same-origin panel paths', () => {
    for (const ok of ['/admin', '/admin/approvals', '/admin/approvals/3f2a7c9e-1b4d-4e8f-9a6b-2c5d7e9f0a1b'])
      assert.equal(safeReturnPath(ok), ok);
    for (const bad of [
      undefined,
      '',
      '//evil.test',
      'https://evil.test/admin',
      '/admin/../v1',
      '/admin/./x',
      '/adminx',
      '/admin\\x',
      '/admin/x?y=1',
      '/admin//evil.test',
      ' /admin',
      '/admin/login',
      '/admin/logout',
      ['/admin'],
      `/admin/${'a'.repeat(300)}`,
    ]) {
      assert.equal(safeReturnPath(bad), '/admin/approvals', String(bad));
    }
  });
});
