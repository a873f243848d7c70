import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Request } from 'express';
import type { Principal } from './principal.js';
import { WorkspaceResolver } from './workspace.resolver.js';

const twoWorkspaces: Principal = {
  userId: 'u1',
  email: 'a@example.com',
  tokenId: 't1',
  kind: 'personal',
  surfaces: ['mcp', 'api'],
  scopes: [],
  memberships: [
    { workspaceId: 'w1', slug: 'north', role: 'admin' },
    { workspaceId: 'w2', slug: 'south', role: 'viewer' },
  ],
};
const request = { headers: {}, query: {} } as unknown as Request;

describe('WorkspaceResolver', () => {
  const resolver = new WorkspaceResolver();

  it('asks a caller in several workspaces to pass workspace_id when the tool takes it', () => {
    assert.throws(
      () => resolver.resolve(request, twoWorkspaces, undefined, true),
      /pass workspace_id \(id or slug\) as an argument.*Yours: north, south/,
    );
  });

  it('never asks for a workspace_id argument the tool would refuse: it names the ways left', () => {
    assert.throws(
      () => resolver.resolve(request, twoWorkspaces, undefined, false),
      (error: Error) => {
        assert.doesNotMatch(error.message, /pass workspace_id/);
        assert.match(error.message, /takes no workspace_id argument.*token bound to one workspace.*X-Workspace-Id.*Yours: north, south/);
        return true;
      },
    );
  });
});
