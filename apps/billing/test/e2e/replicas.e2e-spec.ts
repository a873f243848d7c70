import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { mintToken, needsRealPostgres, startReplicas, type AppProcess } from '../support/app-process.js';
import { callStateless, callTool } from '@nest-mcp/core/testing';
import { sentInvoice as sentInvoiceOf } from '../support/rest-http.js';
import { PanelVisitor, csrfOf } from '../support/panel.js';
import { createTestDatabase, queryRows, type TestDatabase } from '../support/test-database.js';
import { NO_LEDGER_FAULTS, checkLedger, createCustomer, invoiceWrite, ledgerFaults } from '../support/write-ledger.js';

/**
 * Two server processes (`node dist/main.js`) on one PostgreSQL and one Redis, behind a
 * round-robin client: nothing a call needs lives in one process. An approval created through one
 * replica is decided on the other's admin pages and collected through the first; an
 * `input_required` retry lands on the other replica (and its state cannot be replayed on the
 * first); concurrent calls with one idempotency key, split across both, run once; one rate limit
 * holds across both.
 */

const REDIS_URL = process.env.RATE_LIMIT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const TOKEN_LIMIT = 20;
const YES = { confirm: { action: 'accept', content: { confirm: true } } };

describe('two replicas on one database', { skip: needsRealPostgres(), timeout: 180_000 }, () => {
  let database: TestDatabase;
  let a: AppProcess;
  let b: AppProcess;

  before(async () => {
    database = await createTestDatabase();
    [a, b] = await startReplicas(2, {
      databaseUrl: database.url,
      env: {
        // What replicas must share: the requestState key, the database, the rate-limit store.
        MCP_STATE_SECRET: randomBytes(32).toString('hex'),
        REDIS_URL,
        RATE_LIMIT_KEY_PREFIX: `replicas-${process.pid}-${randomBytes(3).toString('hex')}`,
        RATE_LIMIT_TOKEN_PER_MINUTE: String(TOKEN_LIMIT),
        RATE_LIMIT_WORKSPACE_PER_MINUTE: '1000000',
        RATE_LIMIT_COST_DEFAULT: '1',
        RATE_LIMIT_COST_READ: '1',
        RATE_LIMIT_COST_WRITE: '1',
        RATE_LIMIT_COST_DESTRUCTIVE: '1',
      },
    });
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
  });

  const query = <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> => queryRows<T>(database.url, sql, values);
  const invoiceStatus = async (id: string) =>
    (await query<{ status: string }>('SELECT status FROM invoices WHERE id = $1', [id]))[0].status;

  /** A sent, unpaid invoice of a new customer, created over REST on `app`. */
  const sentInvoice = async (app: AppProcess, token: string) =>
    sentInvoiceOf(app, token, await createCustomer(app.baseUrl, token, `replica-${randomBytes(4).toString('hex')}@replicas.test`));

  it("approval link: created through A, decided on B's admin pages, collected through A; it ran once", { timeout: 60_000 }, async () => {
    const token = await mintToken(database.url);
    const invoiceId = await sentInvoice(a, token);
    const args = { invoice_id: invoiceId, reason: 'Issued twice' };
    const clientInfo = { name: 'Invoice Assistant', version: '3.1.0' };

    const pending = await callTool(a.mcpUrl, 'billing_invoice_cancel', args, { token, clientInfo });
    const envelope = pending.envelope as any;
    assert.equal(envelope?.status, 'pending_confirmation', pending.text);
    const path = new URL(envelope.approval.url).pathname;
    assert.equal(await invoiceStatus(invoiceId), 'sent');

    const person = new PanelVisitor(b.baseUrl);
    assert.equal((await person.signIn('admin@demo.test', b.adminPassword)).status, 303);
    const page = await person.get(path);
    assert.equal(page.status, 200, page.text);
    assert.ok(page.text.includes('Invoice Assistant') && page.text.includes(invoiceId), 'B shows the call A recorded');
    const decision = await person.post(`${path}/decision`, { _csrf: csrfOf(page.text), decision: 'continue' });
    assert.equal(decision.status, 200, decision.text);
    assert.match(decision.text, /Done: Cancel an invoice ran/);
    assert.equal(await invoiceStatus(invoiceId), 'cancelled');

    const collected = await callTool(a.mcpUrl, 'billing_invoice_cancel', args, { token, clientInfo });
    const outcome = collected.envelope as any;
    assert.equal(outcome?.ok, true, collected.text);
    assert.equal(outcome.data.id, invoiceId);
    assert.equal(outcome.data.status, 'cancelled');

    const runs = await query(
      `SELECT id FROM mcp_audit_events WHERE method = 'tools/call' AND target = 'billing_invoice_cancel' AND channel = 'panel' AND arguments->>'invoice_id' = $1`,
      [invoiceId],
    );
    assert.equal(runs.length, 1, "the tool ran once, from B's admin page");
    assert.deepEqual(await query(`SELECT status FROM mcp_approvals WHERE id = $1`, [envelope.approval.id]), [{ status: 'executed' }]);
  });

  it(
    'input_required: asked through A, the retry with requestState completes on B; the state cannot be replayed on A',
    { timeout: 60_000 },
    async () => {
      const token = await mintToken(database.url);
      const invoiceId = await sentInvoice(b, token);
      const args = { invoice_id: invoiceId, reason: 'Duplicate' };
      const capabilities = { elicitation: {} };

      const asked = await callTool(a.mcpUrl, 'billing_invoice_cancel', args, { token, capabilities });
      assert.equal(asked.status, 200, asked.text);
      assert.equal(asked.body.result.resultType, 'input_required', asked.text);
      const requestState = asked.body.result.requestState as string;
      assert.equal(await invoiceStatus(invoiceId), 'sent');

      const done = await callTool(b.mcpUrl, 'billing_invoice_cancel', args, {
        token,
        capabilities,
        params: { requestState, inputResponses: YES },
      });
      assert.equal(done.status, 200, done.text);
      assert.equal(done.body.result.resultType, 'complete');
      assert.equal((done.envelope as any).status, 'success', done.text);
      assert.equal(await invoiceStatus(invoiceId), 'cancelled');

      const replay = await callTool(a.mcpUrl, 'billing_invoice_cancel', args, {
        token,
        capabilities,
        params: { requestState, inputResponses: YES },
      });
      assert.equal(replay.body.error?.code, -32602, replay.text);
      assert.match(replay.body.error.message, /already used/);
    },
  );

  it(
    'concurrent calls with one idempotency key, split across A and B, run once and all get the same answer',
    { timeout: 60_000 },
    async () => {
      const token = await mintToken(database.url);
      const customerId = await createCustomer(a.baseUrl, token, `idem-${randomBytes(4).toString('hex')}@replicas.test`);
      const key = `replicas-idem-${process.pid}-${randomBytes(4).toString('hex')}`;
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          callTool((i % 2 ? a : b).mcpUrl, 'billing_invoice_create', invoiceWrite(customerId, key), { token }),
        ),
      );
      for (const answer of answers) assert.equal(answer.envelope?.ok, true, answer.text);
      const texts = new Set(answers.map((answer) => answer.body.result.content[0].text));
      assert.equal(texts.size, 1, 'byte for byte the same answer on both replicas');

      const ledger = await checkLedger(database.url, key, [key]);
      assert.deepEqual(ledgerFaults(ledger), NO_LEDGER_FAULTS);
      assert.equal(ledger.invoices, 1, 'one invoice');
      assert.equal(ledger.writeAudits, 1, 'one write, audited with it');
      assert.equal(ledger.replayAudits, 9, 'the nine others were answered from the stored answer (and audited as calls)');
    },
  );

  it(
    `rate limits hold across both replicas: ${TOKEN_LIMIT} units per minute for a token, whichever replica is asked`,
    { timeout: 60_000 },
    async () => {
      const token = await mintToken(database.url);
      const list = (app: AppProcess, id: number) => callStateless(app.mcpUrl, 'tools/list', {}, { id, token });
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => list(i % 2 ? a : b, i + 1)));
      const byStatus = (status: number) => answers.filter((answer) => answer.status === status);
      assert.equal(byStatus(200).length, TOKEN_LIMIT, answers.map((answer) => answer.status).join(','));
      assert.equal(byStatus(429).length, 30 - TOKEN_LIMIT);
      for (const refused of byStatus(429)) {
        assert.equal(refused.body.error.code, -32000);
        assert.equal(refused.body.error.data.limit, 'token');
        assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      }
      // Each replica got 15 requests, under the limit of 20: only a count shared by both refuses any.
    },
  );
});
