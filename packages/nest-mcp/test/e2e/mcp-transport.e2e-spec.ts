import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Injectable, Module, UnauthorizedException, type CanActivate } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ordersApp } from '../fixtures/orders.fixture.js';
import { callStateless, post, rawRequest, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';
import { withRestValidation } from '../support/rest-validation.js';

const LIMIT = 2048;
const tooLarge = { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Request body too large (limit ${LIMIT} bytes)` } };

/** Stands for the authentication the identity layer adds: it must run after the size check. */
@Injectable()
class RequireAuthorization implements CanActivate {
  canActivate(context: Parameters<CanActivate['canActivate']>[0]): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string> }>();
    if (!request.headers.authorization) throw new UnauthorizedException('Authentication required');
    return true;
  }
}

function guardedApp() {
  @Module({ imports: [ordersApp({ maxBodyBytes: LIMIT })], providers: [{ provide: APP_GUARD, useClass: RequireAuthorization }] })
  class GuardedAppModule {}
  return GuardedAppModule;
}

const AUTH = { authorization: 'Bearer test' };

describe('transport rules (docs/contract.md §1)', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(guardedApp());
  });
  after(() => t.close());

  it('refuses a declared Content-Length above the limit with 413 before authentication', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(LIMIT) } });
    const answer = await rawRequest(t.mcpUrl, {
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      chunks: [body],
    });
    assert.equal(answer.status, 413);
    assert.deepEqual(JSON.parse(answer.text), tooLarge);
    assert.equal(answer.headers['cache-control'], 'no-store');
  });

  it('cuts a chunked body without Content-Length at the limit while it is still being sent', async () => {
    const answer = await rawRequest(t.mcpUrl, {
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...AUTH },
      chunks: ['{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"', 'x'.repeat(LIMIT)],
      end: false, // the client never finishes: only a cut while reading can answer
    });
    assert.equal(answer.status, 413);
    assert.deepEqual(JSON.parse(answer.text), tooLarge);
  });

  it('authenticates after the body checks: no token, 401 as a JSON-RPC error', async () => {
    const { status, body, headers } = await post(t.mcpUrl, { jsonrpc: '2.0', id: 5, method: 'ping' });
    assert.equal(status, 401);
    assert.equal(body.id, 5);
    assert.equal(headers.get('cache-control'), 'no-store');
  });

  it('refuses an Origin that is not allowed with 403, and accepts localhost origins', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const evil = await post(t.mcpUrl, ping, { ...AUTH, origin: 'http://evil.example.com' });
    assert.equal(evil.status, 403);
    assert.equal(evil.body.error.code, -32600);
    assert.match(evil.body.error.message, /Origin "http:\/\/evil.example.com" is not allowed/);
    const local = await post(t.mcpUrl, ping, { ...AUTH, origin: 'http://localhost:5173' });
    assert.equal(local.status, 200);
  });

  it('refuses a non-local Host on a loopback connection (DNS rebinding) with 403', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const answer = await rawRequest(t.mcpUrl, {
      headers: { host: 'evil.example.com', 'content-type': 'application/json', ...AUTH },
      chunks: [body],
    });
    assert.equal(answer.status, 403);
    assert.match(JSON.parse(answer.text).error.message, /Host "evil.example.com" is not allowed/);
  });

  for (const method of ['GET', 'DELETE', 'PUT']) {
    it(`answers ${method} with 405 and Allow: POST`, async () => {
      const answer = await rawRequest(t.mcpUrl, { method, headers: AUTH });
      assert.equal(answer.status, 405);
      assert.equal(answer.headers.allow, 'POST');
      assert.equal(answer.headers['cache-control'], 'no-store');
      assert.ok(answer.headers['mcp-protocol-version']);
      assert.equal(JSON.parse(answer.text).error.code, -32600);
    });
  }

  const malformed: Array<[string, string, string, number, number]> = [
    ['a batch', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]', 'application/json', 400, -32600],
    ['broken JSON', '{"jsonrpc":"2.0",', 'application/json', 400, -32700],
    ['an empty body', '', 'application/json', 400, -32700],
    ['a __proto__ key', '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"__proto__":{"x":1}}}', 'application/json', 400, -32600],
    [
      'a constructor.prototype key',
      '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"constructor":{"prototype":{}}}}',
      'application/json',
      400,
      -32600,
    ],
    ['a wrong content type', '{"jsonrpc":"2.0","id":1,"method":"ping"}', 'text/plain', 415, -32600],
  ];
  for (const [label, body, contentType, status, code] of malformed) {
    it(`answers ${label} with ${status} and ${code}`, async () => {
      const answer = await rawRequest(t.mcpUrl, { headers: { 'content-type': contentType, ...AUTH }, chunks: [body] });
      assert.equal(answer.status, status);
      const parsed = JSON.parse(answer.text);
      assert.equal(parsed.error.code, code);
      assert.equal(parsed.jsonrpc, '2.0');
      assert.equal(answer.headers['cache-control'], 'no-store');
      assert.doesNotMatch(answer.text, /at .+\.js:\d+/);
    });
  }

  it('answers invalid UTF-8 with a parse error', async () => {
    const body = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const answer = await rawRequest(t.mcpUrl, { headers: { 'content-type': 'application/json', ...AUTH }, chunks: [body] });
    assert.equal(answer.status, 400);
    assert.match(JSON.parse(answer.text).error.message, /not valid UTF-8/);
  });

  it('accepts notifications with 202 and an empty body in both eras', async () => {
    const handshake = await post(t.mcpUrl, { jsonrpc: '2.0', method: 'notifications/initialized' }, AUTH);
    assert.equal(handshake.status, 202);
    assert.equal(handshake.text, '');
    const stateless = await post(
      t.mcpUrl,
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: {
          requestId: 1,
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      },
      { ...AUTH, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'notifications/cancelled' },
    );
    assert.equal(stateless.status, 202);
    assert.equal(stateless.text, '');
    assert.equal(stateless.headers.get('mcp-protocol-version'), '2026-07-28');
  });

  it('keeps the body limit configurable: a body under the limit goes through', async () => {
    const { status, body } = await post(
      t.mcpUrl,
      { jsonrpc: '2.0', id: 'x', method: 'ping', params: { pad: 'y'.repeat(LIMIT / 2) } },
      AUTH,
    );
    assert.equal(status, 200);
    assert.deepEqual(body, { jsonrpc: '2.0', id: 'x', result: {} });
  });
});

describe('transport defaults', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(ordersApp(), { configure: withRestValidation });
  });
  after(() => t.close());

  it('uses 1 MiB as the default body limit', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } });
    const answer = await rawRequest(t.mcpUrl, { headers: { 'content-type': 'application/json' }, chunks: [body] });
    assert.equal(answer.status, 413);
    assert.match(answer.text, /limit 1048576 bytes/);
  });

  it('leaves REST routes to the REST body reader and their DTO validation', async () => {
    const response = await fetch(`${t.baseUrl}/v1/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customerEmail: 'not-an-email' }),
    });
    assert.equal(response.status, 400);
  });

  it('serves a stateless call right after a handshake one: nothing is remembered between requests', async () => {
    const handshake = await post(t.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': '2025-06-18' });
    const stateless = await callStateless(t.mcpUrl, 'tools/list');
    assert.equal(handshake.body.result.resultType, undefined);
    assert.equal(stateless.body.result.resultType, 'complete');
  });
});
