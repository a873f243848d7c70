import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppModule } from '../../src/app.module.js';
import { callStateless } from '../support/mcp-http.js';
import { matchSnapshot } from '../support/snapshot.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('the application', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(AppModule);
  });
  after(() => t.close());

  it('publishes every tool with the schema generated from its DTOs (snapshot)', async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/list');
    matchSnapshot('test/e2e', 'app-tools', body.result.tools);
  });

  it('serves Swagger from the same DTOs', async () => {
    const response = await fetch(`${t.baseUrl}/docs-json`);
    assert.equal(response.status, 200);
    const document = (await response.json()) as { paths: Record<string, unknown> };
    assert.ok(document.paths['/v1/status']);
  });
});
