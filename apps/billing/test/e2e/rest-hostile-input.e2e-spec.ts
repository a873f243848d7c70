import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { post, statelessRequest } from '@nest-mcp/core/testing';

/**
 * Hostile input over REST (one handler, two doors: neither may be the weaker) gets the precise 4xx MCP already gives (never
 * a 500), and no answer names the framework.
 */
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const NOT_A_UUID = 'not-a-uuid';
const UUID = '00000000-0000-4000-8000-000000000000';

/** Cursors that decode to the right outer shape but were never issued: a non-uuid id, a key no column holds. */
const CRAFTED = {
  customers: [cursorOf(['Acme', NOT_A_UUID]), cursorOf(['Ac\u0000me', UUID])],
  payments: [cursorOf([new Date().toISOString(), NOT_A_UUID])],
  invoices: [cursorOf(['2026-01-01', NOT_A_UUID]), cursorOf(['0000-01-01', UUID])],
} as const;

function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

describe('REST hostile input: precise 4xx answers, like MCP', () => {
  let t: BillingTestApp;
  let token: string;

  before(async () => {
    t = await startBillingApp();
    token = await t.token();
  });
  after(() => t?.close());

  const get = async (path: string) => {
    const response = await fetch(`${t.baseUrl}${path}`, { headers: bearer(token) });
    const text = await response.text();
    return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
  };

  for (const [list, cursors] of Object.entries(CRAFTED)) {
    it(`GET /v1/${list} with a crafted cursor is 400 invalid_cursor, not 500`, async () => {
      for (const cursor of cursors) {
        const answer = await get(`/v1/${list}?cursor=${cursor}`);
        assert.equal(answer.status, 400, answer.text);
        assert.equal(answer.body.code, 'invalid_cursor', answer.text);
        assert.match(answer.body.message, /next_cursor/);
      }
    });
  }

  it('a date of year 0000 (which PostgreSQL cannot store) is a 400 naming the field, not a database error', async () => {
    const answer = await get('/v1/invoices?issued_from=0000-01-01');
    assert.equal(answer.status, 400, answer.text);
    assert.match(answer.text, /issued_from/);
  });

  it('billing_invoices_search with a crafted cursor is an isError invalid_cursor result, not -32603', async () => {
    for (const cursor of CRAFTED.invoices) {
      const request = statelessRequest('tools/call', { name: 'billing_invoices_search', arguments: { cursor } });
      const answer = await post(t.mcpUrl, request.body, { ...request.headers, ...bearer(token) });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body.error, undefined, answer.text);
      assert.equal(answer.body.result.isError, true, answer.text);
      assert.equal(answer.body.result.structuredContent.errors[0].code, 'invalid_cursor', answer.text);
    }
  });

  it('a JSON body nested 20,000 deep is 400 with the depth named, not 500', async () => {
    const response = await fetch(`${t.baseUrl}/v1/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: `{"name":"Deep","email":"deep@rest.test","extra":${nested(20_000)}}`,
    });
    const text = await response.text();
    assert.equal(response.status, 400, text);
    assert.match(JSON.parse(text).message, /nested deeper than 64 levels/);
  });

  it('a "constructor" key anywhere in a REST body is refused by name (400), as on /mcp', async () => {
    const response = await fetch(`${t.baseUrl}/v1/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: '{"amount_minor":100,"currency":"MXN","evidence":{"raw_extracted":{"constructor":{"name":"x"}}}}',
    });
    const text = await response.text();
    assert.equal(response.status, 400, text);
    assert.match(String(JSON.parse(text).message), /"constructor" keys are not accepted/);
  });

  it('no answer carries X-Powered-By (REST, MCP, an unknown path)', async () => {
    const rest = await fetch(`${t.baseUrl}/v1/customers`, { headers: bearer(token) });
    assert.equal(rest.status, 200);
    const request = statelessRequest('tools/list');
    const mcp = await fetch(t.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers, ...bearer(token) },
      body: JSON.stringify(request.body),
    });
    assert.equal(mcp.status, 200);
    const missing = await fetch(`${t.baseUrl}/nowhere`);
    for (const answer of [rest, mcp, missing]) assert.equal(answer.headers.get('x-powered-by'), null, answer.url);
  });
});
