import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ForbiddenException } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from './principal.js';
import { inNoWorkspace, WorkspaceResolver } from './workspace.resolver.js';

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

  it('tells a caller in no workspace at all so (no_workspace), whatever they name', () => {
    const none: Principal = { ...twoWorkspaces, memberships: [] };
    assert.equal(inNoWorkspace(none), true);
    const withHeader = { headers: { 'x-workspace-id': 'north' }, query: {} } as unknown as Request;
    for (const [req, argument] of [
      [request, undefined],
      [request, 'north'],
      [withHeader, undefined],
    ] as const) {
      assert.throws(
        () => resolver.resolve(req, none, argument),
        (error: unknown) => {
          assert.ok(error instanceof ForbiddenException);
          assert.deepEqual(error.getResponse(), {
            statusCode: 403,
            error: 'no_workspace',
            code: 'no_workspace',
            message: 'You are not a member of any workspace of this server yet: ask a workspace admin to add you',
          });
          return true;
        },
      );
    }
  });

  it('keeps its answers for a caller with workspaces, and for a token bound to one it lost', () => {
    assert.equal(inNoWorkspace(twoWorkspaces), false);
    assert.throws(() => resolver.resolve(request, twoWorkspaces, 'east'), /Workspace "east" was not found among your workspaces/);
    const bound: Principal = { ...twoWorkspaces, workspaceId: 'w9', memberships: [] };
    assert.equal(inNoWorkspace(bound), false);
    assert.throws(() => resolver.resolve(request, bound), /The workspace of this token is no longer yours/);
  });
});
