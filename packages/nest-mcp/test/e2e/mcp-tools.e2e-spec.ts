import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { guardLog, ordersApp } from '../fixtures/orders.fixture.js';
import { callHandshake, callStateless, envelopeOf, post, statelessRequest, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

const validOrder = {
  customerEmail: 'ana@example.com',
  currency: 'MXN',
  dueDate: '2026-12-31',
  lines: [{ description: 'Consulting', quantity: 2, unitPriceMinor: 150000 }],
};

describe('tools over MCP (real app, HTTP)', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(ordersApp());
  });
  after(() => t.close());

  for (const era of ['stateless', 'handshake'] as const) {
    const call = (method: string, params: Record<string, unknown> = {}) =>
      era === 'stateless' ? callStateless(t.mcpUrl, method, params) : callHandshake(t.mcpUrl, method, params);

    describe(`${era} era`, () => {
      it('lists tools sorted by name with DTO-derived schemas and all four annotations', async () => {
        const { status, body } = await call('tools/list');
        assert.equal(status, 200);
        const names = body.result.tools.map((tool: { name: string }) => tool.name);
        assert.deepEqual(names, [...names].sort());
        assert.deepEqual(names, ['echo', 'explode', 'orders_create', 'orders_get', 'raw_content']);
        const create = body.result.tools.find((tool: { name: string }) => tool.name === 'orders_create');
        assert.equal(create.inputSchema.type, 'object');
        assert.equal(create.inputSchema.additionalProperties, false);
        assert.deepEqual(create.inputSchema.required, ['customerEmail', 'currency', 'dueDate', 'lines']);
        assert.equal(create.inputSchema.properties.lines.items.properties.quantity.type, 'integer');
        assert.deepEqual(create.annotations, {
          title: 'Create an order',
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: false,
          openWorldHint: false,
        });
        assert.equal(create.outputSchema.properties.data.properties.totalMinor.type, 'number');
      });

      it('calls a controller route handler in-process through its guard, interceptor and param decorators', async () => {
        guardLog.length = 0;
        const { status, body } = await call('tools/call', { name: 'orders_create', arguments: validOrder });
        assert.equal(status, 200);
        assert.equal(body.result.isError, undefined);
        const envelope = envelopeOf(body);
        assert.equal(envelope.ok, true);
        assert.equal(envelope.status, 'success');
        assert.equal(envelope.toolName, 'orders_create');
        assert.equal(envelope.safety, 'mutation');
        assert.equal(envelope.data.totalMinor, 300000);
        assert.equal(envelope.data.servedVia, 'mcp');
        assert.equal(envelope.data.invokedAs, 'tool');
        assert.deepEqual(body.result.structuredContent, envelope);
        assert.deepEqual(guardLog, ['mcp:create']);
      });

      it('answers invalid arguments with isError and one actionable message per field', async () => {
        const { status, body } = await call('tools/call', {
          name: 'orders_create',
          arguments: { ...validOrder, dueDate: '31/12/2026', lines: [{ description: 'x', quantity: 0, unitPriceMinor: 1 }], extra: 1 },
        });
        assert.equal(status, 200);
        assert.equal(body.result.isError, true);
        const envelope = envelopeOf(body);
        assert.equal(envelope.ok, false);
        const fields = envelope.errors.map((e) => e.field).sort();
        assert.deepEqual(fields, ['dueDate', 'extra', 'lines[0].quantity']);
        const due = envelope.errors.find((e) => e.field === 'dueDate')!;
        assert.match(due.message, /YYYY-MM-DD/);
        assert.match(due.message, /call orders_create again/);
      });

      it('turns a NotFoundException from the handler into an isError result', async () => {
        const { body } = await call('tools/call', { name: 'orders_get', arguments: { orderId: 'ord_404' } });
        assert.equal(body.result.isError, true);
        const envelope = envelopeOf(body);
        assert.equal(envelope.errors[0].code, 'not_found');
        assert.match(envelope.errors[0].message, /Order ord_404 does not exist/);
      });

      it('masks unexpected exceptions as -32603 without leaking the message', async () => {
        const { status, body, text } = await call('tools/call', { name: 'explode', arguments: {} });
        assert.equal(status, 200);
        assert.equal(body.error.code, -32603);
        assert.equal(body.id, 1);
        assert.doesNotMatch(text, /hunter2|at .*\.js/);
      });

      it('answers an unknown tool with -32602', async () => {
        const { body } = await call('tools/call', { name: 'nope', arguments: {} });
        assert.equal(body.error.code, -32602);
        assert.match(body.error.message, /Unknown tool: nope/);
      });

      it('holds a tool without an input DTO to its empty closed schema', async () => {
        const { body } = await call('tools/call', { name: 'raw_content', arguments: { surprise: 1 } });
        assert.equal(body.result.isError, true);
        assert.match(envelopeOf(body).errors[0].message, /`surprise` is not an accepted argument; this tool takes none/);
      });

      it('passes a handler-built CallToolResult through untouched', async () => {
        const { body } = await call('tools/call', { name: 'raw_content', arguments: {} });
        assert.deepEqual(body.result.content, [{ type: 'text', text: 'plain text, no envelope' }]);
      });
    });
  }

  it('gives provider methods (input, invocation) with the caller era and client info', async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'echo', arguments: { text: 'hola' } });
    const envelope = envelopeOf(body);
    assert.deepEqual(envelope.data, { text: 'hola', era: 'stateless', client: 'test-client' });
  });

  it('refuses through the same guard as HTTP', async () => {
    const request = statelessRequest('tools/call', { name: 'orders_create', arguments: validOrder });
    const { body } = await post(t.mcpUrl, request.body, { ...request.headers, 'x-deny': 'yes' });
    assert.equal(body.result.isError, true);
    assert.match(envelopeOf(body).errors[0].message, /Denied by ApiKeyGuard/);
  });

  it('serves the same handler over REST with the same validation', async () => {
    const ok = await fetch(`${t.baseUrl}/v1/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validOrder),
    });
    assert.equal(ok.status, 201);
    assert.equal(((await ok.json()) as { servedVia: string }).servedVia, 'http');
  });
});
