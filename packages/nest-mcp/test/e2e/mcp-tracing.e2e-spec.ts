import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { post, startMcpTestApp, statelessRequest, type McpTestApp } from '@nest-mcp/core/testing';
import { ordersApp } from '../fixtures/orders.fixture.js';

/**
 * The MCP layer's spans, with an in-memory exporter installed the way an application installs
 * its SDK: one SERVER span per request, continuing `_meta.traceparent`, with the MCP semantic
 * convention attributes and the outcome.
 */
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_SPAN_ID = 'b7ad6b7169203331';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;

function onlySpan(): ReadableSpan {
  const spans = exporter.getFinishedSpans();
  assert.equal(spans.length, 1, `one span per MCP request, got ${spans.map((s) => s.name).join(', ')}`);
  return spans[0];
}

/** A 2026-era request whose `_meta` also carries trace context. */
function traced(method: string, params: Record<string, unknown>, meta: Record<string, unknown> = { traceparent: TRACEPARENT }) {
  const request = statelessRequest(method, params, 'req-1');
  request.body.params._meta = { ...request.body.params._meta, ...meta };
  return request;
}

after(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

describe('MCP spans (OpenTelemetry)', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(ordersApp());
  });
  after(() => t.close());
  beforeEach(() => exporter.reset());

  it('continues _meta.traceparent: same trace, the client span as parent, MCP attributes, outcome ok', async () => {
    const { body, headers } = traced(
      'tools/call',
      { name: 'echo', arguments: { text: 'hi' } },
      { traceparent: TRACEPARENT, tracestate: 'vendor=1' },
    );
    const answer = await post(t.mcpUrl, body, headers);
    assert.equal(answer.status, 200);
    const span = onlySpan();
    assert.equal(span.name, 'tools/call echo');
    assert.equal(span.kind, SpanKind.SERVER);
    assert.equal(span.spanContext().traceId, TRACE_ID);
    assert.equal(span.parentSpanContext?.spanId, PARENT_SPAN_ID);
    assert.equal(span.parentSpanContext?.isRemote, true);
    assert.equal(span.spanContext().traceState?.get('vendor'), '1');
    assert.equal(span.status.code, SpanStatusCode.UNSET);
    assert.deepEqual(
      {
        method: span.attributes['mcp.method.name'],
        tool: span.attributes['gen_ai.tool.name'],
        operation: span.attributes['gen_ai.operation.name'],
        id: span.attributes['jsonrpc.request.id'],
        version: span.attributes['mcp.protocol.version'],
        outcome: span.attributes['nestmcp.outcome'],
        transport: span.attributes['network.transport'],
        code: span.attributes['rpc.response.status_code'],
      },
      {
        method: 'tools/call',
        tool: 'echo',
        operation: 'execute_tool',
        id: 'req-1',
        version: '2026-07-28',
        outcome: 'ok',
        transport: 'tcp',
        code: undefined,
      },
    );
  });

  it('falls back to the HTTP traceparent header when _meta has none', async () => {
    const { body, headers } = statelessRequest('tools/list', {}, 3);
    await post(t.mcpUrl, body, { ...headers, traceparent: TRACEPARENT });
    const span = onlySpan();
    assert.equal(span.name, 'tools/list');
    assert.equal(span.spanContext().traceId, TRACE_ID);
    assert.equal(span.parentSpanContext?.spanId, PARENT_SPAN_ID);
    assert.equal(span.attributes['jsonrpc.request.id'], '3');
  });

  it('prefers _meta over the HTTP header, and starts a new trace when neither is valid', async () => {
    const other = '00-11111111111111111111111111111111-2222222222222222-01';
    const { body, headers } = traced('tools/list', {});
    await post(t.mcpUrl, body, { ...headers, traceparent: other });
    assert.equal(onlySpan().spanContext().traceId, TRACE_ID);

    exporter.reset();
    const broken = traced('tools/list', {}, { traceparent: 'not-a-traceparent', tracestate: 42 });
    await post(t.mcpUrl, broken.body, broken.headers);
    const span = onlySpan();
    assert.notEqual(span.spanContext().traceId, TRACE_ID);
    assert.equal(span.parentSpanContext, undefined);
  });

  it('records an isError tool result as outcome isError, error.type tool_error', async () => {
    const { body, headers } = traced('tools/call', { name: 'orders_create', arguments: { customerEmail: 'not-an-email' } });
    const answer = await post(t.mcpUrl, body, headers);
    assert.equal(answer.body.result.isError, true);
    const span = onlySpan();
    assert.equal(span.attributes['nestmcp.outcome'], 'isError');
    assert.equal(span.attributes['error.type'], 'tool_error');
  });

  it('records a crash: -32603, status ERROR, the exception; the span ends', async () => {
    const { body, headers } = traced('tools/call', { name: 'explode', arguments: {} });
    const answer = await post(t.mcpUrl, body, headers);
    assert.equal(answer.body.error.code, -32603);
    const span = onlySpan();
    assert.equal(span.name, 'tools/call explode');
    assert.equal(span.attributes['nestmcp.outcome'], 'error');
    assert.equal(span.attributes['rpc.response.status_code'], '-32603');
    assert.equal(span.attributes['error.type'], '-32603');
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.equal(span.events.filter((event) => event.name === 'exception').length, 1);
    assert.equal(span.spanContext().traceId, TRACE_ID);
  });

  it('records protocol errors with their code: caller mistakes leave the status unset, server-range codes set ERROR', async () => {
    const unknown = traced('tools/call', { name: 'no_such_tool', arguments: {} });
    await post(t.mcpUrl, unknown.body, unknown.headers);
    let span = onlySpan();
    assert.equal(span.attributes['rpc.response.status_code'], '-32602');
    assert.equal(span.status.code, SpanStatusCode.UNSET);

    exporter.reset();
    const mismatch = traced('tools/call', { name: 'echo', arguments: { text: 'x' } });
    const answer = await post(t.mcpUrl, mismatch.body, { ...mismatch.headers, 'mcp-name': 'orders_get' });
    assert.equal(answer.body.error.code, -32020);
    span = onlySpan();
    assert.equal(span.attributes['rpc.response.status_code'], '-32020');
    assert.equal(span.attributes['http.response.status_code'], 400);
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.equal(span.spanContext().traceId, TRACE_ID);
  });

  it('traces the 2025 era, resources and prompts, with their targets', async () => {
    await post(
      t.mcpUrl,
      { jsonrpc: '2.0', id: 9, method: 'resources/read', params: { uri: 'orders://status', _meta: { traceparent: TRACEPARENT } } },
      { 'mcp-protocol-version': '2025-06-18' },
    );
    let span = onlySpan();
    assert.equal(span.name, 'resources/read');
    assert.equal(span.attributes['mcp.resource.uri'], 'orders://status');
    assert.equal(span.attributes['mcp.protocol.version'], '2025-06-18');
    assert.equal(span.spanContext().traceId, TRACE_ID);

    exporter.reset();
    await post(
      t.mcpUrl,
      {
        jsonrpc: '2.0',
        id: 10,
        method: 'prompts/get',
        params: { name: 'orders_follow_up', arguments: { customerEmail: 'ana@example.com' } },
      },
      { 'mcp-protocol-version': '2025-06-18' },
    );
    span = onlySpan();
    assert.equal(span.name, 'prompts/get orders_follow_up');
    assert.equal(span.attributes['gen_ai.prompt.name'], 'orders_follow_up');
  });

  it('traces notifications and malformed envelopes too (one span each)', async () => {
    const answer = await post(t.mcpUrl, { jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.equal(answer.status, 202);
    assert.equal(onlySpan().attributes['nestmcp.outcome'], 'ok');

    exporter.reset();
    await post(t.mcpUrl, { jsonrpc: '1.0', id: 1, method: 'ping' });
    const span = onlySpan();
    assert.equal(span.attributes['rpc.response.status_code'], '-32600');
    assert.equal(span.attributes['jsonrpc.protocol.version'], '1.0');
  });
});
