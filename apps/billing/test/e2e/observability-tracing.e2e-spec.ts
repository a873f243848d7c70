import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { post, statelessRequest } from '@nest-mcp/core/testing';

/**
 * The MCP layer's spans in the billing app (the layer's own span tests: packages/nest-mcp/test/e2e/mcp-tracing.e2e-spec.ts), with an in-memory exporter installed the way an application installs
 * its SDK: one SERVER span per request, continuing `_meta.traceparent`, with the MCP semantic
 * convention attributes and the outcome.
 */
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_SPAN_ID = 'b7ad6b7169203331';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;

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

describe('MCP spans in the billing app', () => {
  let t: BillingTestApp;
  before(async () => {
    t = await startBillingApp();
  });
  after(() => t.close());
  beforeEach(() => exporter.reset());

  it('carries the workspace the call acted in (set by the audit hook) and continues the trace', async () => {
    const token = await t.token();
    const { body, headers } = traced('tools/call', { name: 'billing_customer_summary', arguments: { email: 'nobody@nowhere.test' } });
    const answer = await post(t.mcpUrl, body, { ...headers, ...bearer(token) });
    assert.equal(answer.status, 200);
    const span = exporter.getFinishedSpans().find((s) => s.attributes['mcp.method.name'] === 'tools/call');
    assert.ok(span);
    assert.equal(span.attributes['app.workspace.slug'], 'demo');
    assert.match(String(span.attributes['app.workspace.id']), /^[0-9a-f-]{36}$/);
    assert.equal(span.spanContext().traceId, TRACE_ID);
    // The audit row records the same trace.
    const row = await t.prisma.client.mcpAuditEvent.findFirst({
      where: { target: 'billing_customer_summary' },
      orderBy: { occurredAt: 'desc' },
    });
    assert.equal(row?.traceId, TRACE_ID);
  });
});
