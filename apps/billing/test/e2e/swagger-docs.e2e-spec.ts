import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';

interface Operation {
  summary?: string;
  description?: string;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { scheme?: string; bearerFormat?: string; description?: string }> };
}

describe('the REST API documentation (/docs)', () => {
  let t: BillingTestApp;
  let document: Document;
  before(async () => {
    t = await startBillingApp();
    const response = await fetch(`${t.baseUrl}/docs-json`);
    assert.equal(response.status, 200);
    document = (await response.json()) as Document;
  });
  after(() => t.close());

  it('leaves out the MCP endpoint and the admin pages', () => {
    const hidden = Object.keys(document.paths).filter((path) => /^\/(mcp|admin)(\/|$)/.test(path));
    assert.deepEqual(hidden, []);
    assert.ok(document.paths['/v1/customers'], 'the REST routes are still there');
  });

  it('summarises a route that is a tool with the tool title and describes it with the tool description', () => {
    const operation = document.paths['/v1/customers/summary']?.get;
    assert.equal(operation?.summary, 'Customer billing summary');
    assert.match(operation?.description ?? '', /^When to use:/);
  });

  it('describes the bearer scheme as an access token, not a JWT', () => {
    const bearer = document.components.securitySchemes.bearer;
    assert.equal(bearer?.scheme, 'bearer');
    assert.equal(bearer?.bearerFormat, 'access token');
    assert.match(bearer?.description ?? '', /access token/);
  });
});
