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

describe('who may read the documentation (API_DOCS)', () => {
  const saved = process.env.API_DOCS;
  let t: BillingTestApp | undefined;
  after(async () => {
    await t?.close();
    if (saved === undefined) delete process.env.API_DOCS;
    else process.env.API_DOCS = saved;
  });
  const start = async (mode: string) => {
    await t?.close();
    process.env.API_DOCS = mode;
    t = await startBillingApp();
    return t;
  };

  it('off: neither the page nor the OpenAPI document is served', async () => {
    const app = await start('off');
    assert.equal((await fetch(`${app.baseUrl}/docs-json`)).status, 404);
    assert.equal((await fetch(`${app.baseUrl}/docs`)).status, 404);
  });

  it('authenticated: 401 with the challenge without a token, 403 for a token issued for mcp only, 200 for one issued for api', async () => {
    const app = await start('authenticated');
    const anonymous = await fetch(`${app.baseUrl}/docs-json`);
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Bearer /);
    assert.match(((await anonymous.json()) as { message: string }).message, /Authentication required/);
    const agent = await app.token({ surfaces: undefined });
    assert.equal((await fetch(`${app.baseUrl}/docs-json`, { headers: { authorization: `Bearer ${agent}` } })).status, 403);
    const program = await app.token({ surfaces: ['api'] });
    const allowed = await fetch(`${app.baseUrl}/docs-json`, { headers: { authorization: `Bearer ${program}` } });
    assert.equal(allowed.status, 200);
    assert.ok(((await allowed.json()) as Document).paths['/v1/customers']);
  });
});
