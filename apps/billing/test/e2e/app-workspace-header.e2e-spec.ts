import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callTool, envelopeOf, post, statelessRequest, toolsByName } from '@nest-mcp/core/testing';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';

/**
 * Every workspace-scoped tool mirrors `workspace_id` into `Mcp-Param-Workspace-Id`
 * (WorkspaceScopedDto), so a gateway can route or limit by workspace; the layer refuses a call
 * whose header disagrees with the argument before the guards' workspace does anything with it.
 */
describe('workspace_id mirrored into Mcp-Param-Workspace-Id', () => {
  let t: BillingTestApp;
  let token: string;
  before(async () => {
    t = await startBillingApp();
    token = await t.token({ workspaceSlug: undefined });
  });
  after(() => t.close());

  const createCustomer = (email: string, headers: Record<string, string>) => {
    const request = statelessRequest('tools/call', {
      name: 'billing_customer_create',
      arguments: { name: 'H', email, workspace_id: 'demo' },
    });
    return post(t.mcpUrl, request.body, { ...request.headers, ...bearer(token), ...headers });
  };

  it('lists x-mcp-header on workspace_id of the workspace-scoped tools', async () => {
    const tools = await toolsByName(t.mcpUrl, token);
    const scoped = [...tools.values()].filter((tool) => tool.inputSchema.properties?.workspace_id);
    assert.ok(scoped.length > 1);
    for (const tool of scoped) assert.equal(tool.inputSchema.properties.workspace_id['x-mcp-header'], 'Workspace-Id', tool.name);
  });

  it('refuses a call whose Mcp-Param-Workspace-Id is not its workspace_id, creating nothing', async () => {
    for (const headers of [{ 'Mcp-Param-Workspace-Id': 'other' }, {}] as Array<Record<string, string>>) {
      const { status, body } = await createCustomer('mismatch@demo.test', headers);
      assert.equal(status, 400);
      assert.equal(body.error.code, -32020);
      assert.match(body.error.message, /Mcp-Param-Workspace-Id/);
    }
    assert.equal(await t.prisma.client.customer.count({ where: { email: 'mismatch@demo.test' } }), 0);
  });

  it('accepts the call when header and argument agree', async () => {
    const { status, body } = await createCustomer('agree@demo.test', { 'Mcp-Param-Workspace-Id': 'demo' });
    assert.equal(status, 200);
    assert.equal(envelopeOf(body).ok, true, JSON.stringify(body));
    const mirrored = await callTool(
      t.mcpUrl,
      'billing_customer_create',
      { name: 'M', email: 'mirrored@demo.test', workspace_id: 'demo' },
      { token },
    );
    assert.equal(mirrored.envelope.ok, true, mirrored.text);
  });
});
