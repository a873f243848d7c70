import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Logger, Module } from '@nestjs/common';
import { loadAppConfig } from '../../src/app-config.js';
import { AppConfigModule } from '../../src/app-config.module.js';
import { ObservabilityModule } from '../../src/observability/observability.module.js';
import { installObservabilityLogger } from '../../src/observability/observability.logger.js';
import { observedToolsApp } from '../fixtures/observed-tools.fixture.js';
import { captureOutput, type LogCapture } from '../support/log-capture.js';
import { post, statelessRequest, rawRequest } from '@nest-mcp/core/testing';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The application side: with OTEL_EXPORTER_OTLP_ENDPOINT set, ObservabilityModule installs the
 * SDK and spans reach the collector over OTLP/HTTP; every request gets an id and a structured,
 * redacted access line tied to its JSON-RPC message and trace.
 */
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const ALL_LEVELS = ['log', 'error', 'warn', 'debug', 'verbose', 'fatal'] as const;

interface Export {
  method: string;
  url: string;
  contentType: string;
  body: string;
}

describe('OTLP export and structured logs (ObservabilityModule)', () => {
  const exports: Export[] = [];
  let collector: Server;
  let t: TestApp;
  let logs: LogCapture;
  const saved = { ...process.env };

  before(async () => {
    collector = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        exports.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'] ?? '', body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
    delete process.env.OTEL_TRACES_EXPORTER;
    delete process.env.OTEL_SDK_DISABLED;
    delete process.env.OTEL_SERVICE_NAME;
    installObservabilityLogger('json');

    @Module({ imports: [AppConfigModule.forRoot(loadAppConfig()), ObservabilityModule, observedToolsApp({ maxBodyBytes: 4096 })] })
    class ObservedAppModule {}
    logs = captureOutput();
    t = await startTestApp(ObservedAppModule);
    Logger.overrideLogger([...ALL_LEVELS]);
  });

  after(async () => {
    logs.restore();
    await t.close(); // idempotent: the last test closes it already
    await new Promise((resolve) => collector.close(resolve));
    process.env = saved;
  });

  const accessLine = (requestId: string) => logs.records().find((record) => record.context === 'HTTP' && record.requestId === requestId);

  it("answers with the caller's X-Request-Id and logs one JSON access line with the JSON-RPC fields and the trace", async () => {
    const { body, headers } = statelessRequest('tools/call', { name: 'echo', arguments: { text: 'hello' } }, 'call-7');
    (body.params as Record<string, unknown>)._meta = { ...body.params._meta, traceparent: TRACEPARENT };
    const answer = await post(t.mcpUrl, body, {
      ...headers,
      'x-request-id': 'req-abc.1',
      authorization: 'Bearer mcp_pat_SHOULDNEVERBELOGGED',
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('x-request-id'), 'req-abc.1');
    const line = accessLine('req-abc.1');
    assert.ok(line, 'an access line for the request');
    assert.deepEqual(
      {
        level: line.level,
        message: line.message,
        rpcId: line.rpcId,
        rpcMethod: line.rpcMethod,
        tool: line.tool,
        status: line.status,
        path: line.path,
        traceId: line.traceId,
      },
      {
        level: 'log',
        message: `POST /mcp 200 ${line.durationMs} ms`,
        rpcId: 'call-7',
        rpcMethod: 'tools/call',
        tool: 'echo',
        status: 200,
        path: '/mcp',
        traceId: TRACE_ID,
      },
    );
    assert.equal(typeof line.timestamp, 'number');
    assert.doesNotMatch(logs.text(), /SHOULDNEVERBELOGGED/);
  });

  it('replaces an unusable X-Request-Id with a fresh UUID', async () => {
    const answer = await post(t.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'x-request-id': 'has spaces\tand "quotes"' });
    const id = answer.headers.get('x-request-id') ?? '';
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(accessLine(id)?.rpcMethod, 'ping');
  });

  it('ties a line logged while serving (a masked crash) to its request, JSON-RPC id, tool and trace', async () => {
    const { body, headers } = statelessRequest('tools/call', { name: 'explode', arguments: {} }, 99);
    (body.params as Record<string, unknown>)._meta = { ...body.params._meta, traceparent: TRACEPARENT };
    const answer = await post(t.mcpUrl, body, { ...headers, 'x-request-id': 'req-crash' });
    assert.equal(answer.body.error.code, -32603);
    const crash = logs.records().find((record) => record.level === 'error' && String(record.message).startsWith('Internal error'));
    assert.ok(crash, 'the masked error is logged');
    assert.equal(crash.requestId, 'req-crash');
    assert.equal(crash.rpcId, 99);
    assert.equal(crash.tool, 'explode');
    assert.equal(crash.traceId, TRACE_ID);
    assert.equal(crash.context, 'McpEndpoint');
  });

  it('logs requests the body reader refuses (413, 415) with their request id', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5000) } });
    const tooLarge = await rawRequest(t.mcpUrl, {
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(big), 'x-request-id': 'req-big' },
      chunks: [big],
    });
    assert.equal(tooLarge.status, 413);
    assert.equal(tooLarge.headers['x-request-id'], 'req-big');
    const wrongType = await post(t.mcpUrl, 'x', { 'content-type': 'text/plain', 'x-request-id': 'req-type' });
    assert.equal(wrongType.status, 415);
    // The access line is written when the connection is done with the answer.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(accessLine('req-big')?.status, 413);
    assert.equal(accessLine('req-type')?.status, 415);
  });

  it('exports the spans over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (flushed on shutdown)', async () => {
    await t.close();
    const traces = exports.filter((e) => e.method === 'POST' && e.url === '/v1/traces');
    assert.ok(traces.length >= 1, `a POST /v1/traces reached the collector (got ${exports.map((e) => `${e.method} ${e.url}`).join(', ')})`);
    assert.match(traces[0].contentType, /application\/json/);
    const spans = traces.flatMap((e) => {
      const payload = JSON.parse(e.body) as {
        resourceSpans: Array<{
          resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
          scopeSpans: Array<{
            spans: Array<{ name: string; traceId: string; attributes: Array<{ key: string; value: { stringValue?: string } }> }>;
          }>;
        }>;
      };
      return payload.resourceSpans.flatMap((rs) =>
        rs.scopeSpans.flatMap((ss) =>
          ss.spans.map((span) => ({
            ...span,
            service: rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue,
          })),
        ),
      );
    });
    const echo = spans.find((span) => span.name === 'tools/call echo');
    assert.ok(echo, `the tools/call span was exported (got ${spans.map((s) => s.name).join(', ')})`);
    assert.equal(echo.traceId, TRACE_ID);
    assert.equal(echo.service, 'nest-mcp-billing');
    assert.equal(echo.attributes.find((a) => a.key === 'mcp.method.name')?.value.stringValue, 'tools/call');
    assert.ok(spans.some((span) => span.name === 'tools/call explode'));
  });
});
