import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { MCP_CONTEXT_TYPE } from '@nest-mcp/core';
import { MCP_SCOPES_METADATA, type McpTargetKind } from '@nest-mcp/core/extensions';
import type { Principal } from './principal.js';
import { setPrincipal } from './request-principal.js';
import { ScopeGuard } from './scope.guard.js';
import type { ScopePolicy } from './scope.policy.js';

const handler = () => undefined;
Reflect.defineMetadata(MCP_SCOPES_METADATA, ['billing:write'], handler);

function guardAsking() {
  const asked: string[][] = [];
  const policy = { assert: async (_principal: Principal, required: string[]) => void asked.push(required) } as unknown as ScopePolicy;
  return { guard: new ScopeGuard(new Reflector(), policy), asked };
}

function contextOf(principal: Principal, mcpKind?: McpTargetKind): ExecutionContext {
  const req = { headers: {} } as Request;
  setPrincipal(req, principal);
  return {
    getType: () => (mcpKind ? MCP_CONTEXT_TYPE : 'http'),
    getHandler: () => handler,
    getClass: () => class {},
    getArgByIndex: (index: number) => (index === 1 ? { kind: mcpKind } : req),
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
}

const principal = (workspaceId: string | undefined): Principal => ({
  userId: 'u1',
  email: 'a@demo.test',
  tokenId: 'tok1',
  kind: 'personal',
  surfaces: ['mcp', 'api'],
  scopes: ['billing:write'],
  workspaceId,
  memberships: [{ workspaceId: 'ws1', slug: 'demo', role: 'admin' }],
});

describe('ScopeGuard', () => {
  it('asks the policy for every REST request', async () => {
    const { guard, asked } = guardAsking();
    assert.equal(await guard.canActivate(contextOf(principal('ws1'))), true);
    assert.deepEqual(asked, [['billing:write']]);
  });

  it('asks it for every MCP capability call, whatever workspaces the token has (one rule: the guard decides the call)', async () => {
    const { guard, asked } = guardAsking();
    await guard.canActivate(contextOf(principal('ws1'), 'tool'));
    await guard.canActivate(contextOf(principal(undefined), 'tool'));
    await guard.canActivate(contextOf(principal('ws1'), 'completion'));
    assert.equal(asked.length, 3);
  });

  it('lets a handler without scopes through unasked (the MCP endpoint itself)', async () => {
    const { guard, asked } = guardAsking();
    const context = { ...contextOf(principal('ws1')), getHandler: () => () => undefined };
    assert.equal(await guard.canActivate(context as ExecutionContext), true);
    assert.deepEqual(asked, []);
  });
});
