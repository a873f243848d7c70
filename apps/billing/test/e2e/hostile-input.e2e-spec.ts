import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import {
  STATELESS_VERSION,
  assertPrototypesClean,
  assertWellFormedAnswer,
  envelope,
  hasPollutingKey,
  nestedJson,
  paramHeaders,
  postBare,
  prototypesSnapshot,
} from '@nest-mcp/core/testing';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';

/**
 * Hostile input against the billing application, property-based (fast-check): random credentials,
 * random arguments to the real write tools, prototype keys and bad bytes in real calls. The wire
 * rules themselves are proven on a fixture app in packages/nest-mcp/test/e2e/hostile-input.e2e-spec.ts.
 */

const stateless = (method: string, name?: string) => ({
  'mcp-protocol-version': STATELESS_VERSION,
  'mcp-method': method,
  ...(name === undefined ? {} : { 'mcp-name': name }),
});

/** A header value fetch can send unchanged: printable ASCII without surrounding blanks. */
const headerText = fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'x'));

describe('hostile input: the billing application (authentication, audit, real DTOs)', () => {
  let t: BillingTestApp;
  let token: string;
  const prototypes = prototypesSnapshot();

  before(async () => {
    t = await startBillingApp();
    token = await t.token();
  });
  after(() => t.close());

  it('any credential that is not a valid token is 401 with the challenge, never a fault', async () => {
    await fc.assert(
      fc.asyncProperty(headerText, fc.constantFrom('authorization', 'x-api-key', 'authorization-bearer'), async (secret, header) => {
        const headers: Record<string, string> =
          header === 'authorization-bearer'
            ? { authorization: `Bearer ${secret}` }
            : header === 'authorization'
              ? { authorization: secret }
              : { 'x-api-key': secret };
        const answer = await postBare(t.mcpUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), headers);
        assert.equal(answer.status, 401, answer.text);
        // A refused token gets error="invalid_token" (RFC 6750 §3); a header that carries no token, none.
        assert.match(
          answer.headers.get('www-authenticate') ?? '',
          /^Bearer (error="invalid_token", error_description="[^"]*", )?resource_metadata="/,
        );
        assert.equal(assertWellFormedAnswer(answer).id, 1);
      }),
      { numRuns: 30 },
    );
  });

  it('random arguments to the write tools: isError results or -32602, audited, never a fault', async () => {
    const money = fc.oneof(fc.integer(), fc.double(), fc.string(), fc.jsonValue({ maxDepth: 1 }));
    const argsArb = fc.oneof(
      fc.record({
        tool: fc.constant('billing_invoice_create'),
        args: fc.record(
          {
            customer_id: fc.oneof(fc.uuid(), fc.string()),
            currency: fc.oneof(fc.constantFrom('MXN', 'USD', 'XXX'), fc.jsonValue({ maxDepth: 1 })),
            issue_date: fc.oneof(fc.constant('2026-11-30'), fc.string()),
            due_date: fc.oneof(fc.constant('2026-12-30'), fc.string()),
            lines: fc.oneof(
              fc.array(fc.record({ description: fc.string(), quantity: money, unit_price_minor: money }, { requiredKeys: [] }), {
                maxLength: 5,
              }),
              fc.jsonValue({ maxDepth: 2 }),
            ),
            workspace_id: fc.oneof(fc.constant('demo'), fc.string(), fc.uuid()),
          },
          { requiredKeys: [] },
        ),
      }),
      fc.record({
        tool: fc.constant('billing_payment_register'),
        args: fc.record(
          {
            amount_minor: money,
            currency: fc.jsonValue({ maxDepth: 1 }),
            evidence: fc.record(
              { raw_extracted: fc.jsonValue({ maxDepth: 4 }), tracking_key_candidates: fc.jsonValue({ maxDepth: 2 }) },
              { requiredKeys: [] },
            ),
            idempotency_key: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
          },
          { requiredKeys: [] },
        ),
      }),
      fc.record({
        tool: fc.constantFrom('billing_customer_summary', 'billing_invoices_search', 'billing_attachment_upload'),
        args: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })),
      }),
    );
    await fc.assert(
      fc.asyncProperty(argsArb, async ({ tool, args }) => {
        const text = JSON.stringify({
          jsonrpc: '2.0',
          id: 'b',
          method: 'tools/call',
          params: { name: tool, arguments: args, _meta: envelope() },
        });
        // As a client mirrors workspace_id (x-mcp-header "Workspace-Id"): a random one must reach the tool.
        const workspaceHeader = paramHeaders([{ name: 'Workspace-Id', path: ['workspace_id'], type: 'string' }], args);
        const answer = await postBare(t.mcpUrl, text, { ...stateless('tools/call', tool), ...workspaceHeader, ...bearer(token) });
        const body = assertWellFormedAnswer(answer);
        if (hasPollutingKey(JSON.parse(text))) return assert.equal(answer.status, 400);
        assert.equal(answer.status, 200, answer.text.slice(0, 300));
        if (body.error) assert.equal(body.error.code, -32602, answer.text.slice(0, 300));
      }),
      { numRuns: 40 },
    );
    // The failed calls were audited (no secret kept), and nothing polluted a prototype.
    const failed = await t.prisma.client.mcpAuditEvent.count({ where: { method: 'tools/call', outcome: 'failed' } });
    assert.ok(failed > 0);
    assertPrototypesClean(prototypes);
  });

  it('prototype keys, deep nesting and bad bytes in real tool calls get the exact answers', async () => {
    const headers = { ...stateless('tools/call', 'billing_payment_register'), ...bearer(token) };
    const call = (args: string) =>
      `{"jsonrpc":"2.0","id":"p","method":"tools/call","params":{"name":"billing_payment_register","_meta":${JSON.stringify(envelope())},"arguments":${args}}}`;
    const proto = await postBare(t.mcpUrl, call('{"evidence":{"raw_extracted":{"__proto__":{"isAdmin":true}}}}'), headers);
    assert.deepEqual([proto.status, proto.body.error.code], [400, -32600]);
    const deep = await postBare(t.mcpUrl, call(`{"evidence":{"raw_extracted":${nestedJson(20_000, 'object')}}}`), headers);
    assert.deepEqual([deep.status, deep.body.error.code], [400, -32600]);
    const bytes = await postBare(
      t.mcpUrl,
      Buffer.concat([Buffer.from(call('{"reference":"')), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
      headers,
    );
    assert.deepEqual([bytes.status, bytes.body.error.code], [400, -32700]);
    assertPrototypesClean(prototypes);
    // Still serving, authenticated.
    const list = await postBare(t.mcpUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } }), {
      ...stateless('tools/list'),
      ...bearer(token),
    });
    assert.equal(list.status, 200);
    assert.ok(list.body.result.tools.length > 5);
  });
});
