import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ordersApp } from '../fixtures/orders.fixture.js';
import { callHandshake, callStateless, envelopeOf, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

describe('resources, prompts and completions (docs/contract.md §5)', () => {
  let t: McpTestApp;
  let orderId: string;
  before(async () => {
    t = await startMcpTestApp(ordersApp());
    const { body } = await callStateless(t.mcpUrl, 'tools/call', {
      name: 'orders_create',
      arguments: {
        customerEmail: 'ana@example.com',
        currency: 'USD',
        dueDate: '2027-01-15',
        lines: [{ description: 'x', quantity: 1, unitPriceMinor: 500 }],
      },
    });
    orderId = envelopeOf(body).data.id;
  });
  after(() => t.close());

  it('lists fixed resources and URI templates separately', async () => {
    const resources = (await callStateless(t.mcpUrl, 'resources/list')).body.result.resources;
    assert.deepEqual(resources, [{ uri: 'orders://status', name: 'status', title: 'Service status', mimeType: 'text/plain' }]);
    const templates = (await callHandshake(t.mcpUrl, 'resources/templates/list')).body.result.resourceTemplates;
    assert.deepEqual(templates, [
      { uriTemplate: 'orders://orders/{orderId}', name: 'order', description: 'One order.', mimeType: 'application/json' },
    ]);
  });

  it('reads a fixed resource as text', async () => {
    const { body } = await callStateless(t.mcpUrl, 'resources/read', { uri: 'orders://status' });
    assert.deepEqual(body.result.contents, [{ uri: 'orders://status', mimeType: 'text/plain', text: 'all systems nominal' }]);
    assert.equal(body.result.ttlMs, 0);
  });

  it('reads a template resource through a controller handler with @Param', async () => {
    const { body } = await callHandshake(t.mcpUrl, 'resources/read', { uri: `orders://orders/${orderId}` });
    const [content] = body.result.contents;
    assert.equal(content.uri, `orders://orders/${orderId}`);
    assert.equal(content.mimeType, 'application/json');
    assert.deepEqual(JSON.parse(content.text), { id: orderId, customerEmail: 'ana@example.com', totalMinor: 500, status: 'open' });
  });

  it('decodes percent-encoded template variables before the handler sees them', async () => {
    const { body } = await callStateless(t.mcpUrl, 'resources/read', { uri: 'orders://orders/ord%20404' });
    assert.equal(body.error.code, -32602);
    assert.match(body.error.message, /Order ord 404 does not exist/);
  });

  for (const uri of ['orders://unknown', 'orders://orders/ord_999']) {
    it(`answers an unknown resource (${uri}) with -32602 and data.uri, never empty contents`, async () => {
      const { status, body } = await callStateless(t.mcpUrl, 'resources/read', { uri });
      assert.equal(status, 200);
      assert.equal(body.error.code, -32602);
      assert.equal(body.error.data.uri, uri);
    });
  }

  it('refuses a resource URI over 8192 characters with -32602 naming the limit, and quotes none of it back', async () => {
    const uri = `orders://orders/${'x'.repeat(100_000)}`;
    const read = await callHandshake(t.mcpUrl, 'resources/read', { uri });
    assert.equal(read.status, 200);
    assert.equal(read.body.error.code, -32602);
    assert.equal(read.body.error.message, `Invalid params: "uri" is ${uri.length} characters long; a resource URI has at most 8192`);
    assert.deepEqual(read.body.error.data, { field: 'uri', length: uri.length, maxLength: 8192 });
    const completion = await callHandshake(t.mcpUrl, 'completion/complete', {
      ref: { type: 'ref/resource', uri },
      argument: { name: 'id', value: '' },
    });
    assert.equal(completion.body.error.code, -32602);
    assert.match(completion.body.error.message, /"ref\.uri" is 100016 characters long/);
    assert.ok(read.text.length < 1000 && completion.text.length < 1000, 'the answers do not echo the URI');
  });

  it('quotes at most 200 characters of an unknown resource URI in the message', async () => {
    const uri = `orders://nothing/${'y'.repeat(5_000)}`;
    const { body } = await callHandshake(t.mcpUrl, 'resources/read', { uri });
    assert.equal(body.error.code, -32602);
    assert.equal(body.error.message, `Unknown resource: ${uri.slice(0, 200)}… (${uri.length} characters)`);
    const completion = await callHandshake(t.mcpUrl, 'completion/complete', {
      ref: { type: 'ref/resource', uri },
      argument: { name: 'id', value: '' },
    });
    assert.equal(completion.body.error.message, `Unknown resource template: ${uri.slice(0, 200)}… (${uri.length} characters)`);
  });

  it('lists prompts with arguments derived from the DTO', async () => {
    const { body } = await callStateless(t.mcpUrl, 'prompts/list');
    assert.deepEqual(body.result.prompts, [
      {
        name: 'orders_follow_up',
        title: 'Follow up',
        description: 'Drafts a follow-up message.',
        arguments: [
          { name: 'customerEmail', description: 'Email of the customer to follow up with.', required: true },
          { name: 'tone', description: 'Tone of the message.', required: false },
        ],
      },
    ]);
  });

  it('gets a prompt with validated arguments', async () => {
    const { body } = await callStateless(t.mcpUrl, 'prompts/get', {
      name: 'orders_follow_up',
      arguments: { customerEmail: 'bea@example.com', tone: 'firm' },
    });
    assert.deepEqual(body.result.messages, [
      { role: 'user', content: { type: 'text', text: 'Write a firm follow-up email to bea@example.com.' } },
    ]);
    assert.equal(body.result.resultType, 'complete');
  });

  it('refuses invalid prompt arguments with -32602 naming the field', async () => {
    const { body } = await callHandshake(t.mcpUrl, 'prompts/get', {
      name: 'orders_follow_up',
      arguments: { customerEmail: 'nope', tone: 'rude' },
    });
    assert.equal(body.error.code, -32602);
    assert.match(body.error.message, /`customerEmail` must be an email/);
    assert.match(body.error.message, /`tone` must be one of/);
  });

  it('refuses an unknown prompt with -32602', async () => {
    const { body } = await callStateless(t.mcpUrl, 'prompts/get', { name: 'nope' });
    assert.equal(body.error.code, -32602);
  });

  it('completes a prompt argument by prefix', async () => {
    const { body } = await callStateless(t.mcpUrl, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'orders_follow_up' },
      argument: { name: 'customerEmail', value: 'AN' },
    });
    assert.deepEqual(body.result.completion, { values: ['ana@example.com', 'andres@example.com'], total: 2, hasMore: false });
  });

  it('completes a template variable from live data', async () => {
    const { body } = await callHandshake(t.mcpUrl, 'completion/complete', {
      ref: { type: 'ref/resource', uri: 'orders://orders/{orderId}' },
      argument: { name: 'orderId', value: 'ord_' },
    });
    assert.ok(body.result.completion.values.includes(orderId));
  });

  it('answers an argument without a completion source with no values', async () => {
    const { body } = await callStateless(t.mcpUrl, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'orders_follow_up' },
      argument: { name: 'tone', value: '' },
    });
    assert.deepEqual(body.result.completion, { values: [], total: 0, hasMore: false });
  });

  it('refuses completion for an unknown prompt or a malformed ref with -32602', async () => {
    for (const ref of [{ type: 'ref/prompt', name: 'nope' }, { type: 'ref/other' }]) {
      const { body } = await callStateless(t.mcpUrl, 'completion/complete', { ref, argument: { name: 'x', value: '' } });
      assert.equal(body.error.code, -32602);
    }
  });
});
