import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { post, statelessRequest, matchSnapshot } from '@nest-mcp/core/testing';

describe('the application', () => {
  let t: BillingTestApp;
  before(async () => {
    t = await startBillingApp();
  });
  after(() => t.close());

  it('publishes every tool with the schema generated from its DTOs (snapshot)', async () => {
    const request = statelessRequest('tools/list');
    const { body } = await post(t.mcpUrl, request.body, { ...request.headers, ...bearer(await t.token()) });
    matchSnapshot(import.meta.url, 'app-tools', body.result.tools);
  });

  it('serves Swagger from the same DTOs', async () => {
    const response = await fetch(`${t.baseUrl}/docs-json`);
    assert.equal(response.status, 200);
    const document = (await response.json()) as { paths: Record<string, unknown> };
    assert.ok(document.paths['/v1/status']);
    assert.ok(document.paths['/v1/customers']);
  });
});
