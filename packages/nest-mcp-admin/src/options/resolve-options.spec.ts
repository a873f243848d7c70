import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { McpAdminOptions } from './mcp-admin.options.js';
import { resolveMcpAdminOptions, resolveMountPath } from './resolve-options.js';

const base: McpAdminOptions = {
  publicUrl: 'https://admin.example.test/',
  identity: { person: async () => undefined, signInUrl: (to) => to },
  directory: { tenantsWhere: async () => [], people: async () => new Map(), tenants: async () => new Map() },
  requester: () => undefined,
  actAs: () => undefined,
};

describe('McpAdminModule options', () => {
  it('fills the defaults: 30 min links, the admin channel, /admin, the public URL without its trailing slash', () => {
    const resolved = resolveMcpAdminOptions(base);
    assert.equal(resolved.publicUrl(), 'https://admin.example.test');
    assert.deepEqual([resolved.approvalTtlMs, resolved.channel, resolved.path, resolved.title], [1_800_000, 'admin', '/admin', 'Admin']);
    assert.equal(resolveMcpAdminOptions({ ...base, channel: 'panel', approvalTtlMs: 60_000 }, '/ops/admin/').path, '/ops/admin');
  });

  it('reads a public URL given as a function at each use, and checks it then', () => {
    let url = 'http://127.0.0.1:3000';
    const resolved = resolveMcpAdminOptions({ ...base, publicUrl: () => url });
    assert.equal(resolved.publicUrl(), 'http://127.0.0.1:3000');
    url = 'not a url';
    assert.throws(() => resolved.publicUrl(), /McpAdminModule: publicUrl must be an absolute http\(s\) URL/);
  });

  it('stops the boot naming the wrong option', () => {
    const cases: Array<[Partial<McpAdminOptions> | Record<string, unknown>, RegExp]> = [
      [{ publicUrl: undefined }, /publicUrl must be an absolute/],
      [{ publicUrl: '/admin' }, /publicUrl must be an absolute/],
      [{ publicUrl: 'ftp://example.test' }, /publicUrl must be an http\(s\) URL/],
      [{ publicUrl: 'https://example.test/?x=1' }, /publicUrl must be an origin/],
      [{ approvalTtlMs: 0 }, /approvalTtlMs must be a positive number/],
      [{ approvalTtlMs: Number.NaN }, /approvalTtlMs/],
      [{ channel: 'Admin Pages' }, /channel must be a short lower-case name/],
      [{ identity: { person: async () => undefined } }, /identity must have person\(request\) and signInUrl/],
      [{ identity: { ...base.identity, signOutPath: 'logout' } }, /identity.signOutPath must be a path/],
      [{ directory: { ...base.directory, people: undefined } }, /directory.people must be a function/],
      [{ directory: { ...base.directory, credentials: 'tokens' } }, /directory.credentials must be a function/],
      [{ requester: undefined }, /requester must be a function/],
      [{ actAs: undefined }, /actAs must be a function/],
      [{ title: ' ' }, /title must be a non-empty string/],
    ];
    for (const [change, message] of cases) {
      assert.throws(() => resolveMcpAdminOptions({ ...base, ...change }), message, JSON.stringify(change));
    }
  });

  it('takes a mount path of plain segments only', () => {
    assert.equal(resolveMountPath(undefined), '/admin');
    assert.equal(resolveMountPath('/admin/'), '/admin');
    for (const bad of ['admin', '/', '//admin', '/admin/../x', '/a b', '/admin/:id', 7]) {
      assert.throws(() => resolveMountPath(bad), /McpAdminModule: path must be a path like "\/admin"/, String(bad));
    }
  });
});
