import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Injectable, Logger, Module } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { type McpInvocation, McpTool } from '@nest-mcp/core';
import { installObservabilityLogger, type LogFormat } from '../../src/observability/observability.logger.js';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { captureOutput, type LogCapture } from '../support/log-capture.js';
import { envelope, STATELESS_VERSION, rawRequest } from '@nest-mcp/core/testing';
import { PanelVisitor, setPanelPassword } from '../support/panel.js';

/**
 * A whole session against the real application, with every log level on, both log formats:
 * MCP and REST calls with a known token (Bearer and X-API-Key), wrong tokens, a password
 * sign-in on /admin (right and wrong), uploads of a known file, and failures of every kind.
 * Then everything the process wrote to stdout/stderr, every answer body and header (but the
 * Set-Cookie that hands out the session), and every audit row are searched for the secrets.
 */
const ALL_LEVELS = ['log', 'error', 'warn', 'debug', 'verbose', 'fatal'] as const;

class CarelessInputDto {
  @ApiProperty({ description: 'A password the tool should never have been given.' })
  @IsString()
  @MaxLength(200)
  password: string;

  @ApiProperty({ description: 'A file, base64.' })
  @IsString()
  content_base64: string;
}

/**
 * A tool written carelessly, as tools sometimes are: it logs its arguments and the request's
 * Authorization header, then throws an error that quotes them. The logger has to redact it all.
 */
@Injectable()
class CarelessTools {
  private readonly logger = new Logger('CarelessTools');

  @McpTool({ name: 'careless_tool', description: 'Test only: logs and throws secrets.', annotations: { readOnlyHint: true } })
  careless(input: CarelessInputDto, invocation: McpInvocation): never {
    const authorization = invocation.httpRequest.headers.authorization;
    this.logger.log('careless_tool called', { arguments: invocation.arguments, authorization });
    this.logger.warn(`calling upstream with Authorization: ${authorization} password=${input.password}`);
    this.logger.debug({ input: { ...input } });
    throw new Error(`upstream refused ${authorization} (password=${input.password}, file ${input.content_base64})`);
  }
}

@Module({ providers: [CarelessTools] })
class CarelessToolsModule {}

describe('secret scan: logs, audit rows and error messages', () => {
  let t: BillingTestApp;
  let logs: LogCapture;
  let token: string;
  let viewerToken: string;
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const wrongPassword = `wrong-${randomBytes(12).toString('base64url')}`;
  const wrongToken = `mcp_pat_${randomBytes(32).toString('base64url')}`;
  const fakeJwt = `eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ${randomBytes(16).toString('base64url')}.${randomBytes(32).toString('base64url')}`;
  const file = randomBytes(6 * 1024);
  const fileBase64 = file.toString('base64');
  const sessionCookies: string[] = [];
  /** Every answer the session got: bodies, and headers other than Set-Cookie. */
  const answers: string[] = [];

  before(async () => {
    logs = captureOutput();
    t = await startBillingApp(CarelessToolsModule);
    Logger.overrideLogger([...ALL_LEVELS]);
    token = await t.token();
    viewerToken = await t.token({ scopes: ['billing:read'] });
    await setPanelPassword(t, 'admin@demo.test', password);
  });
  after(async () => {
    logs.restore();
    await t?.close();
  });

  async function keep(response: Response): Promise<{ status: number; text: string }> {
    const text = await response.text();
    answers.push(text);
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') answers.push(`${name}: ${value}`);
    });
    return { status: response.status, text };
  }

  async function mcp(name: string, args: Record<string, unknown>, credentials: Record<string, string>, id: number | string = 1) {
    const response = await fetch(t.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'mcp-protocol-version': STATELESS_VERSION,
        'mcp-method': 'tools/call',
        'mcp-name': name,
        ...credentials,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: envelope() } }),
    });
    return keep(response);
  }

  async function rest(method: string, path: string, credentials: Record<string, string>, body?: unknown) {
    const response = await fetch(`${t.baseUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...credentials },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return keep(response);
  }

  async function raw(body: string, headers: Record<string, string>) {
    const answer = await rawRequest(t.mcpUrl, { headers: { 'content-type': 'application/json', ...headers }, chunks: [body] });
    answers.push(answer.text);
    return answer;
  }

  async function session(label: string): Promise<void> {
    // MCP: list, reads, an upload, with the token as Bearer and as X-API-Key.
    const list = await fetch(t.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18', ...bearer(token) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/list' }),
    });
    assert.equal((await keep(list)).status, 200);
    assert.equal((await mcp('billing_customer_summary', { email: 'nobody@nowhere.test' }, { 'x-api-key': token })).status, 200);
    const uploaded = await mcp(
      'billing_attachment_upload',
      { filename: `${label}.bin`, content_type: 'application/octet-stream', content_base64: fileBase64 },
      bearer(token),
    );
    assert.match(uploaded.text, /"ok\\":true/, uploaded.text.slice(0, 300));
    // Failures the caller can act on: bad base64, secrets as undeclared arguments, a missing scope.
    const badFile = await mcp(
      'billing_attachment_upload',
      { filename: 'x.bin', content_type: 'application/octet-stream', content_base64: `${fileBase64}%%` },
      bearer(token),
    );
    assert.match(badFile.text, /"isError":true/);
    const extra = await mcp(
      'billing_customer_create',
      { name: 'Eve', email: `eve-${label}@example.com`, password, token, api_key: token },
      bearer(token),
    );
    assert.match(extra.text, /"isError":true/);
    assert.equal(
      (await mcp('billing_customer_create', { name: 'Vic', email: `vic-${label}@example.com` }, bearer(viewerToken))).status,
      403,
    );
    // A tool that logs and throws the secrets: masked to the caller, redacted in the logs.
    const careless = await mcp('careless_tool', { password, content_base64: fileBase64 }, bearer(token));
    assert.match(careless.text, /-32603/);
    // Protocol faults: unknown tool, header mismatch, wrong and fake credentials.
    assert.match((await mcp('no_such_tool', { token }, bearer(token))).text, /-32602/);
    for (const credentials of [
      bearer(wrongToken),
      bearer(fakeJwt),
      { 'x-api-key': wrongToken },
      { authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}` },
    ]) {
      assert.equal((await mcp('billing_customer_summary', { email: 'a@b.co' }, credentials)).status, 401);
    }
    // Bodies that are not JSON, holding secrets: the parse error must not quote them.
    for (const body of [
      token,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"k":"${token}"`,
      `password=${password}&token=${token}`,
      `${fileBase64}`,
    ]) {
      const answer = await raw(body, bearer(token));
      assert.equal(answer.status, 400, answer.text);
    }
    assert.equal((await raw(`{"x":"${fileBase64}"`, { 'content-type': 'text/plain', ...bearer(token) })).status, 415);
    // REST with the same token: reads, an upload, a bad upload, a token in the query string.
    assert.equal((await rest('GET', '/v1/customers?limit=2', bearer(token))).status, 200);
    assert.equal(
      (
        await rest('POST', '/v1/attachments', bearer(token), {
          filename: `${label}-rest.bin`,
          content_type: 'application/octet-stream',
          content_base64: fileBase64,
        })
      ).status,
      201,
    );
    assert.equal(
      (
        await rest('POST', '/v1/attachments', bearer(token), {
          filename: 'x',
          content_type: 'nope',
          content_base64: `${fileBase64}!`,
          password,
        })
      ).status,
      400,
    );
    assert.equal((await rest('GET', `/v1/customers?access_token=${token}&password=${password}`, {})).status, 401);
    assert.equal((await rest('GET', '/v1/customers', bearer(wrongToken))).status, 401);
    // Admin pages: a wrong password, then the right one, then a page with the session.
    const visitor = new PanelVisitor(t.baseUrl);
    const refused = await visitor.signIn('admin@demo.test', wrongPassword);
    answers.push(refused.text);
    assert.equal(refused.status, 401);
    const signedIn = await visitor.signIn('admin@demo.test', password);
    assert.equal(signedIn.status, 303, signedIn.text);
    sessionCookies.push(...visitor.cookies.values());
    const page = await visitor.get('/admin/approvals');
    answers.push(page.text);
    assert.equal(page.status, 200);
  }

  it('never writes the token, the password, the session or the file contents anywhere but where they belong', async () => {
    for (const format of ['json', 'pretty'] as LogFormat[]) {
      installObservabilityLogger(format);
      Logger.overrideLogger([...ALL_LEVELS]);
      await session(format);
    }
    // The access lines were written (the capture works) and carry no query string.
    const written = logs.text();
    for (const line of [
      /"path":"\/mcp"/,
      /POST \/v1\/attachments 201/,
      /POST \/admin\/login 303/,
      /GET \/v1\/customers 401/,
      /careless_tool called/,
    ]) {
      assert.ok(line.test(written), `no log line matches ${line}`);
    }

    const auditRows = JSON.stringify(await t.prisma.client.mcpAuditEvent.findMany());
    assert.match(auditRows, /billing_attachment_upload/);
    const sources = { logs: written, answers: answers.join('\n'), audit: auditRows };
    // Not only whole secrets: any 10 characters of one (V8's JSON errors quote 10), and samples of the file.
    const windows = (secret: string, size = 10, step = 1) =>
      Array.from({ length: Math.floor((secret.length - size) / step) + 1 }, (_, i) => secret.slice(i * step, i * step + size));
    const secrets: Record<string, string[]> = {
      token: windows(token),
      'viewer token': windows(viewerToken),
      'wrong token': windows(wrongToken),
      'fake JWT': windows(fakeJwt.slice(fakeJwt.indexOf('.') + 1)),
      password: windows(password),
      'wrong password': windows(wrongPassword),
      'file base64': [fileBase64, ...windows(fileBase64, 24, 256)],
      ...Object.fromEntries(sessionCookies.map((value, i) => [`panel cookie ${i}`, windows(value)])),
    };
    for (const [where, text] of Object.entries(sources)) {
      for (const [what, pieces] of Object.entries(secrets)) {
        assert.ok(pieces.length > 0, what);
        for (const piece of pieces) {
          const at = text.indexOf(piece);
          assert.equal(at, -1, `a piece of the ${what} ("${piece}") appears in ${where}: …${text.slice(Math.max(0, at - 200), at + 100)}…`);
        }
      }
    }
    // What the careless tool logged is there, redacted.
    assert.ok(
      /upstream refused Bearer \[REDACTED\] \(password="\[REDACTED\]", file \[base64 omitted\]/.test(written),
      "the careless tool's error, redacted",
    );
  });
});
