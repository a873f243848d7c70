import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MCP_APPS_EXTENSION, McpRegistry } from '@nest-mcp/core/extensions';
import { bearer, declaredAppScopes, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { envelope, post, statelessRequest, matchSnapshot } from '@nest-mcp/core/testing';

describe('the application', () => {
  let t: BillingTestApp;
  before(async () => {
    t = await startBillingApp();
  });
  after(() => t.close());

  /** Every page of tools/list, for a token with every scope the application declares. */
  async function listAllTools(token: string): Promise<Array<{ name: string }>> {
    const tools: Array<{ name: string }> = [];
    let cursor: string | undefined;
    do {
      // As a host that renders app views: tools only views call are listed to it too.
      const request = statelessRequest('tools/list', cursor ? { cursor } : {});
      request.body.params._meta = envelope({ extensions: { [MCP_APPS_EXTENSION]: {} } });
      const { body } = await post(t.mcpUrl, request.body, { ...request.headers, ...bearer(token) });
      tools.push(...body.result.tools);
      cursor = body.result.nextCursor;
    } while (cursor);
    return tools;
  }

  it('publishes every tool with the schema generated from its DTOs (snapshot)', async () => {
    const token = await t.token({ scopes: declaredAppScopes(t.app) });
    const tools = await listAllTools(token);
    // Every tool of every declared scope is in the snapshot: one the token could not see would be left out silently.
    // A registered tool missing from the list needs a scope the demo admin's role does not allow (app.scopes.ts).
    const registered = t.app
      .get(McpRegistry)
      .tools.map((tool) => tool.name)
      .sort();
    assert.equal(tools.length, registered.length, 'the snapshot holds as many tools as the registry');
    assert.deepEqual(tools.map((tool) => tool.name).sort(), registered);
    matchSnapshot(import.meta.url, 'app-tools', tools);
  });

  it('serves Swagger from the same DTOs', async () => {
    const response = await fetch(`${t.baseUrl}/docs-json`);
    assert.equal(response.status, 200);
    const document = (await response.json()) as { paths: Record<string, unknown> };
    assert.ok(document.paths['/v1/status']);
    assert.ok(document.paths['/v1/customers']);
  });
});
