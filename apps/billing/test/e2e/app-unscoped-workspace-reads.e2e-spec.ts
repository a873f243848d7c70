import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Controller, Get, Module } from '@nestjs/common';
import { McpTool } from '@nest-mcp/core';
import { callTool } from '@nest-mcp/core/testing';
import { SCOPES } from '../../src/app.scopes.js';
import { currentWorkspaceId } from '../../src/identity/current-workspace.js';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';

/**
 * A non-destructive tool outside @WorkspaceScoped() boots (nothing tells, before it runs, whether
 * it reads the workspace); if it does read it, the caller gets a clear client error naming the
 * method and the fix, over MCP and REST, instead of -32603 / 500.
 */
@Controller('v1/depot-stats')
class DepotStatsController {
  @Get()
  @McpTool({
    name: 'depot_stats',
    description: 'Counts parcels per depot.',
    scopes: [SCOPES.billingRead],
    annotations: { readOnlyHint: true },
  })
  stats() {
    return { workspace: currentWorkspaceId() };
  }
}

@Module({ controllers: [DepotStatsController] })
class DepotStatsModule {}

describe('reading the workspace outside @WorkspaceScoped()', () => {
  let t: BillingTestApp;
  let token: string;
  before(async () => {
    t = await startBillingApp(DepotStatsModule);
    token = await t.token();
  });
  after(() => t.close());

  it('5: over MCP, a tool error (not -32603) naming DepotStatsController.stats and @WorkspaceScoped()', async () => {
    const { body, envelope } = await callTool(t.mcpUrl, 'depot_stats', {}, { token });
    assert.equal(body.error, undefined);
    assert.equal(body.result.isError, true);
    const [error] = envelope.errors;
    assert.equal(error.code, 'workspace_not_resolved');
    assert.match(error.message, /DepotStatsController\.stats is not @WorkspaceScoped\(\)/);
    assert.match(error.message, /add @WorkspaceScoped\(\) to DepotStatsController\.stats or its class/);
  });

  it('5: over REST, a 400 with the same words (not 500)', async () => {
    const response = await fetch(`${t.baseUrl}/v1/depot-stats`, { headers: bearer(token) });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { code: string; message: string };
    assert.equal(body.code, 'workspace_not_resolved');
    assert.match(body.message, /DepotStatsController\.stats is not @WorkspaceScoped\(\)/);
  });
});
