import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { MCP_OPTIONS, type ResolvedMcpOptions } from '@nest-mcp/core/extensions';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { STATELESS_VERSION, post, statelessRequest, rawRequest, type RawAnswer, trickle } from '@nest-mcp/core/testing';

/**
 * An anonymous sender must not make the server read megabytes: a body above 64 KiB is read only once its sender authenticated (from the
 * headers), on /mcp and on REST; REST keeps its big limit for the upload route only and gets the
 * slow-body 408. "Not read" is asserted without timing: the 401 arrives while the client has sent
 * nothing (or a fraction) of the body it announced and has not finished the request.
 */
const BIG = 13 * 1024 * 1024;

const mcpHeaders = (method: string, name?: string) => ({
  'content-type': 'application/json',
  'mcp-protocol-version': STATELESS_VERSION,
  'mcp-method': method,
  ...(name ? { 'mcp-name': name } : {}),
});

/** A 9.7 MiB file as base64: a JSON body of ~13 MiB, under the 10 MiB file cap. */
const bigFile = () => Buffer.alloc(Math.floor((BIG * 3) / 4) - 4096, 0x41);

/**
 * Sends `chunk` of a chunked body (no Content-Length) and keeps the request open: resolves with
 * the answer that arrives before the client ended the body.
 */
function openChunked(url: string, headers: Record<string, string>, chunk: Buffer): Promise<RawAnswer & { ended: boolean }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const ended = false;
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { ...headers, 'transfer-encoding': 'chunked' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (piece) => (text += piece));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, ended });
          req.destroy();
        });
      },
    );
    req.on('error', reject);
    req.write(chunk);
  });
}

describe('large bodies: authenticated before they are read; REST limits and slow-body guard', () => {
  let t: BillingTestApp;
  let token: string;
  let options: ResolvedMcpOptions;
  let configuredTimeout: number;

  before(async () => {
    t = await startBillingApp();
    token = await t.token();
    options = t.app.get(MCP_OPTIONS);
    configuredTimeout = options.bodyTimeoutMs;
    // A reader that waited for the announced body would answer 408 after this long.
    options.bodyTimeoutMs = 10_000;
  });
  after(async () => {
    options.bodyTimeoutMs = configuredTimeout;
    await t?.close();
  });

  it('an unauthenticated 13 MiB POST /mcp is 401 with the challenge before any of the body was sent, and the connection closes', async () => {
    // Headers only, the body never comes: a server that waited for it would answer 408 instead.
    const answer = await rawRequest(t.mcpUrl, {
      headers: { ...mcpHeaders('tools/call', 'billing_attachment_upload'), 'content-length': BIG },
      end: false,
    });
    assert.equal(answer.status, 401, answer.text);
    assert.match(String(answer.headers['www-authenticate']), /^Bearer resource_metadata="/);
    assert.equal(answer.headers.connection, 'close');
    const body = JSON.parse(answer.text);
    assert.equal(body.id, null);
    assert.equal(body.error.code, -32600);
    assert.match(body.error.message, /Authentication required/);
  });

  it('an unauthenticated 13 MiB POST /v1/attachments is 401 in the REST shape before any of the body was sent', async () => {
    const answer = await rawRequest(`${t.baseUrl}/v1/attachments`, {
      headers: { 'content-type': 'application/json', 'content-length': BIG },
      end: false,
    });
    assert.equal(answer.status, 401, answer.text);
    assert.match(String(answer.headers['www-authenticate']), /^Bearer resource_metadata="/);
    assert.equal(answer.headers.connection, 'close');
    assert.deepEqual(Object.keys(JSON.parse(answer.text)).sort(), ['error', 'message', 'statusCode']);
  });

  it('a bad token on a large body is 401 too, checked from the headers', async () => {
    const answer = await rawRequest(t.mcpUrl, {
      headers: { ...mcpHeaders('tools/list'), ...bearer('not-a-token'), 'content-length': 200_000 },
      end: false,
    });
    assert.equal(answer.status, 401, answer.text);
  });

  it('an unauthenticated chunked body is 401 once it streams past 64 KiB, before the client ended it', async () => {
    const answer = await openChunked(t.mcpUrl, mcpHeaders('tools/list'), Buffer.alloc(128 * 1024, 0x20));
    assert.equal(answer.status, 401, answer.text);
    assert.equal(answer.ended, false);
    const rest = await openChunked(`${t.baseUrl}/v1/customers`, { 'content-type': 'application/json' }, Buffer.alloc(128 * 1024, 0x20));
    assert.equal(rest.status, 401, rest.text);
  });

  it('small bodies are still read before authentication: an anonymous small call gets the usual 401 with its request id', async () => {
    const answer = await post(t.mcpUrl, { jsonrpc: '2.0', id: 'small', method: 'tools/list', params: {} }, mcpHeaders('tools/list'));
    assert.equal(answer.status, 401);
    assert.equal(answer.body.id, 'small');
  });

  it('an authenticated 13 MiB upload still works, over REST and over MCP (and the MCP call is audited with its user)', async () => {
    const content_base64 = bigFile().toString('base64');
    const restBody = JSON.stringify({ filename: 'big.pdf', content_type: 'application/pdf', content_base64 });
    assert.ok(Buffer.byteLength(restBody) > 12 * 1024 * 1024);
    const viaRest = await fetch(`${t.baseUrl}/v1/attachments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: restBody,
    });
    assert.equal(viaRest.status, 201, (await viaRest.clone().text()).slice(0, 300));
    assert.equal(((await viaRest.json()) as { size_bytes: number }).size_bytes, bigFile().length);

    const call = statelessRequest('tools/call', {
      name: 'billing_attachment_upload',
      arguments: { filename: 'big-mcp.pdf', content_type: 'application/pdf', content_base64 },
    });
    const viaMcp = await post(t.mcpUrl, call.body, { ...call.headers, ...bearer(token) });
    assert.equal(viaMcp.status, 200, viaMcp.text.slice(0, 300));
    assert.notEqual(viaMcp.body.result.isError, true, viaMcp.text.slice(0, 300));
    const audit = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
      where: { target: 'billing_attachment_upload', outcome: 'success' },
    });
    assert.ok(audit.userId, 'the principal found before the body was read reaches the audit row');
  });

  it('a REST body over 1 MiB on a route other than the upload is 413, declared or streamed', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), email: 'big@rest.test' });
    const declared = await rawRequest(`${t.baseUrl}/v1/customers`, {
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...bearer(token) },
      end: false,
    });
    assert.equal(declared.status, 413, declared.text);
    assert.match(JSON.parse(declared.text).message, /limit 1048576 bytes/);
    const streamed = await fetch(`${t.baseUrl}/v1/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: new Blob([body]).stream(),
      duplex: 'half',
    });
    assert.equal(streamed.status, 413);
  });

  it('a slow REST body (JSON or a form) is 408 and the connection is closed; a slow complete one is served', async () => {
    options.bodyTimeoutMs = 400;
    try {
      const body = JSON.stringify({ name: 'Slow Client', email: 'slow@rest.test', pad: undefined });
      const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...bearer(token) };
      const trickled = await trickle(`${t.baseUrl}/v1/customers`, body, { headers, bytes: 1, everyMs: 100 });
      assert.equal(trickled.status, 408, trickled.text);
      assert.equal(trickled.headers.connection, 'close');
      assert.ok(trickled.written < Buffer.byteLength(body));
      assert.deepEqual(JSON.parse(trickled.text), {
        statusCode: 408,
        error: 'Request Timeout',
        message: 'Request body not received within 400 ms',
      });
      const served = await trickle(`${t.baseUrl}/v1/customers`, body, { headers, bytes: 64, everyMs: 20 });
      assert.equal(served.status, 201, served.text);

      // A form another parser reads (the panel's sign-in, no credential needed) gets the same deadline.
      const form = 'email=admin%40demo.test&password=' + 'x'.repeat(200);
      const formHeaders = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(form) };
      const slowForm = await trickle(`${t.baseUrl}/admin/login`, form, { headers: formHeaders, bytes: 1, everyMs: 100 });
      assert.equal(slowForm.status, 408, slowForm.text);
      assert.equal(slowForm.headers.connection, 'close');
      assert.ok(slowForm.written < Buffer.byteLength(form));
    } finally {
      options.bodyTimeoutMs = 10_000;
    }
  });
});
