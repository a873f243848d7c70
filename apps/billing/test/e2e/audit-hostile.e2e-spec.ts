import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { McpAuditLog, type AuditRecord } from '@nest-mcp/prisma';
import { RequestContext } from '../../src/context/request-context.js';
import { captureOutput } from '../support/log-capture.js';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { envelope, post, statelessRequest } from '@nest-mcp/core/testing';

const CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';

/** Hostile values in what ends up in an audit row: refused at the door, or bounded so the row is always written. */
describe('audit trail under hostile input (real database)', () => {
  let t: BillingTestApp;
  let token: string;
  let rivalToken: string;
  let rivalWorkspaceId: string;

  before(async () => {
    t = await startBillingApp();
    token = await t.token();
    await RequestContext.run({ channel: 'system' }, async () => {
      const workspace = await t.prisma.client.workspace.create({ data: { slug: 'audit-rival', name: 'Audit Rival' } });
      const user = await t.prisma.client.user.create({ data: { email: 'boss@audit-rival.test', name: 'Boss' } });
      await t.prisma.client.membership.create({ data: { userId: user.id, workspaceId: workspace.id, role: 'admin' } });
      rivalWorkspaceId = workspace.id;
    });
    rivalToken = await t.token({ email: 'boss@audit-rival.test', workspaceSlug: 'audit-rival' });
  });
  after(() => t.close());

  /** A 2026-era request with its own clientInfo. */
  const mcp = (
    method: string,
    params: Record<string, unknown>,
    clientInfo: unknown = { name: 'test-client', version: '1.0.0' },
    as = token,
  ) => {
    const request = statelessRequest(method, params);
    request.body.params._meta = { ...envelope(), [CLIENT_INFO]: clientInfo } as never;
    // Mcp-Name is optional for resources/read (a 900 KB header would not get through) and
    // base64-encoded for names a header cannot carry raw.
    const name = params.name;
    if (method === 'resources/read') delete request.headers['mcp-name'];
    else if (typeof name === 'string' && !request.headers['mcp-name'])
      request.headers['mcp-name'] = `=?base64?${Buffer.from(name).toString('base64')}?=`;
    return post(t.mcpUrl, request.body, { ...request.headers, ...bearer(as) });
  };
  const summary = (email: string, clientInfo?: unknown, as = token) =>
    mcp('tools/call', { name: 'billing_customer_summary', arguments: { email } }, clientInfo, as);

  describe('clientInfo is validated and bounded', () => {
    it('refuses a NUL in the 2026 clientInfo.name with 400 / -32602 naming the field, and audits nothing of it', async () => {
      const { status, body } = await summary('nul-name@demo.test', { name: 'evil\u0000client', version: '1.0.0' });
      assert.equal(status, 400);
      assert.equal(body.error.code, -32602);
      assert.match(body.error.message, /^Invalid _meta\["io\.modelcontextprotocol\/clientInfo"\]\.name: /);
      assert.equal(await t.prisma.client.mcpAuditEvent.count({ where: { arguments: { equals: { email: 'nul-name@demo.test' } } } }), 0);
    });

    it('refuses a 5 MiB clientInfo.version with 400 / -32602 naming the field', async () => {
      const { status, body } = await summary('huge-version@demo.test', { name: 'big', version: 'v'.repeat(5 * 1024 * 1024) });
      assert.equal(status, 400);
      assert.equal(body.error.code, -32602);
      assert.match(body.error.message, /clientInfo"\]\.version: .*64/);
      const stored = await t.prisma.client.mcpAuditEvent.findMany({ where: { clientName: 'big' } });
      assert.deepEqual(stored, []);
    });

    it('refuses bidi and C1 control characters in clientInfo, a name over 128 characters and a non-string version', async () => {
      for (const clientInfo of [
        { name: 'admin\u202Etxt.exe', version: '1' },
        { name: 'c1\u0085client', version: '1' },
        { name: 'n'.repeat(129), version: '1' },
        { name: 'ok', version: 42 },
        'not an object',
      ]) {
        const { status, body } = await summary('bad-info@demo.test', clientInfo);
        assert.equal(status, 400, JSON.stringify(clientInfo).slice(0, 80));
        assert.equal(body.error.code, -32602);
        assert.match(body.error.message, /^Invalid _meta\["io\.modelcontextprotocol\/clientInfo"\]/);
      }
    });

    it('accepts Unicode letters and spaces in clientInfo at the limits and audits them as sent', async () => {
      const name = `Café 客户端 ${'é'.repeat(128 - 'Café 客户端 '.length)}`;
      const version = `2.0.0-β.${'1'.repeat(64 - '2.0.0-β.'.length)}`;
      const { status } = await summary('unicode-info@demo.test', { name, version });
      assert.equal(status, 200);
      const event = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
        where: { arguments: { equals: { email: 'unicode-info@demo.test' } } },
      });
      assert.equal(event.clientName, name);
      assert.equal(event.clientVersion, version);
    });

    it('refuses a bad clientInfo in a 2025 initialize with -32602 naming the field; a good one still initializes', async () => {
      const initialize = (params: Record<string, unknown>) =>
        post(t.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'initialize', params }, { 'mcp-protocol-version': '2025-06-18', ...bearer(token) });
      const bad = await initialize({
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'evil\u0000client', version: '1.0.0' },
      });
      assert.equal(bad.body.error?.code, -32602, bad.text);
      assert.match(bad.body.error.message, /^Invalid params\.clientInfo\.name: /);
      const huge = await initialize({
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'big', version: 'v'.repeat(5 * 1024 * 1024) },
      });
      assert.equal(huge.body.error.code, -32602);
      assert.match(huge.body.error.message, /^Invalid params\.clientInfo\.version: /);
      const good = await initialize({
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'good-client', version: '1.0.0' },
      });
      assert.equal(good.body.result.protocolVersion, '2025-06-18');
    });
  });

  describe('one bad row never fails another request', () => {
    it('reads from another workspace alongside poisoned requests all succeed and are all audited', async () => {
      const poisoned = Array.from({ length: 10 }, (_, i) => summary(`poison-${i}@demo.test`, { name: `evil\u0000${i}`, version: '1' }));
      const reads = Array.from({ length: 30 }, (_, i) => summary(`rival-${i}@audit-rival.test`, undefined, rivalToken));
      const [poisonAnswers, readAnswers] = await Promise.all([Promise.all(poisoned), Promise.all(reads)]);
      assert.ok(poisonAnswers.every((answer) => answer.status === 400 && answer.body.error.code === -32602));
      assert.deepEqual(
        readAnswers.map((answer) => answer.body.error?.code ?? 'ok'),
        readAnswers.map(() => 'ok'),
      );
      const audited = await t.prisma.client.mcpAuditEvent.count({
        where: { workspaceId: rivalWorkspaceId, target: 'billing_customer_summary', clientName: 'test-client' },
      });
      assert.equal(audited, 30);
    });

    it('stores the good rows of a batch that the database refuses, and fails and logs only the bad row', async () => {
      const audit = t.app.get(McpAuditLog);
      const row = (target: string, durationMs = 1): AuditRecord => ({
        channel: 'mcp',
        method: 'tools/call',
        target,
        outcome: 'success',
        durationMs,
        workspaceId: rivalWorkspaceId,
      });
      const logs = captureOutput();
      try {
        // The first event flushes alone; the next ones queue behind it and share one INSERT.
        const outcomes = await Promise.allSettled([
          audit.recordBatched(row('batch-first')),
          audit.recordBatched(row('batch-good-1')),
          // Past the integer column's range: the database refuses this row, which no validation upstream anticipated.
          audit.recordBatched(row('batch-bad', 2 ** 40)),
          audit.recordBatched(row('batch-good-2')),
          audit.recordBatched(row('batch-good-3')),
        ]);
        assert.deepEqual(
          outcomes.map((outcome) => outcome.status),
          ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
        );
        assert.match(logs.text(), /batch-bad/);
      } finally {
        logs.restore();
      }
      const stored = await t.prisma.client.mcpAuditEvent.findMany({
        where: { target: { startsWith: 'batch-' } },
        select: { target: true },
      });
      assert.deepEqual(stored.map((event) => event.target).sort(), ['batch-first', 'batch-good-1', 'batch-good-2', 'batch-good-3']);
    });
  });

  describe('every call leaves an audit row', () => {
    it('answers a resources/read of a 900 KB URI and audits it with the target truncated', async () => {
      // Random characters: a repetitive URI would compress below the index row limit.
      const uri = `billing://customers/${randomBytes(675_000).toString('base64url')}`;
      assert.ok(uri.length > 900_000);
      const { status, body } = await mcp('resources/read', { uri });
      assert.equal(status, 200);
      assert.equal(body.error.code, -32602);
      const event = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
        where: { method: 'resources/read', target: { startsWith: uri.slice(0, 100) } },
      });
      assert.ok(event.target!.length <= 600, `target stored with ${event.target!.length} characters`);
      assert.ok(uri.startsWith(event.target!.slice(0, 500)));
      assert.match(event.target!, new RegExp(`\\[${uri.length} chars\\]$`));
    });

    it('audits a read-only tools/call whose arguments contain NUL, with the NUL removed', async () => {
      const { status, body } = await summary('nul\u0000arg@demo.test');
      assert.equal(status, 200);
      assert.equal(body.error, undefined);
      const event = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
        where: { arguments: { equals: { email: 'nularg@demo.test' } } },
      });
      assert.equal(event.target, 'billing_customer_summary');
    });

    it('audits a writing tools/call whose arguments contain NUL (keys and values), with the NUL removed', async () => {
      const { status, body } = await mcp('tools/call', {
        name: 'billing_customer_create',
        arguments: { name: 'Nul\u0000Corp', email: 'nul-write@demo.test', 'x\u0000': 1 },
      });
      assert.equal(status, 200);
      assert.notEqual(body.error?.code, -32603);
      const event = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
        where: { target: 'billing_customer_create', arguments: { path: ['email'], equals: 'nul-write@demo.test' } },
      });
      assert.deepEqual(event.arguments, { name: 'NulCorp', email: 'nul-write@demo.test', x: 1 });
    });

    it('leaves exactly one audit row, and never answers -32603, for arguments of any content (property)', async () => {
      const anyText = fc.string({ unit: 'binary', maxLength: 40 });
      const anyJson = fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' });
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('billing_customer_summary', 'billing_customer_create'),
          fc.dictionary(anyText, anyJson),
          async (name, args) => {
            const traceId = randomBytes(16).toString('hex');
            const request = statelessRequest('tools/call', { name, arguments: args });
            request.body.params._meta = { ...envelope(), traceparent: `00-${traceId}-00f067aa0ba902b7-01` } as never;
            const { status, body } = await post(t.mcpUrl, request.body, { ...request.headers, ...bearer(token) });
            assert.ok(status < 500 && body.error?.code !== -32603, JSON.stringify(body));
            // "__proto__" / "constructor" keys are refused by the body reader, before any call is made: nothing to audit.
            if (status === 400 && /"__proto__" and "constructor"/.test(body.error?.message ?? '')) return;
            assert.equal(await t.prisma.client.mcpAuditEvent.count({ where: { traceId } }), 1);
          },
        ),
        { numRuns: Number(process.env.HOSTILE_RUNS ?? 40) },
      );
    });

    it('audits a call whose tool name contains NUL and whose arguments hold a lone surrogate', async () => {
      const { status } = await mcp('tools/call', { name: 'no\u0000such-tool', arguments: { note: 'half \uDC00 pair' } });
      assert.ok(status < 500);
      const event = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({ where: { target: 'nosuch-tool' } });
      assert.deepEqual(event.arguments, { note: 'half \uFFFD pair' });
    });
  });
});
