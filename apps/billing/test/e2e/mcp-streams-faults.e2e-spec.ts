import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { mintToken, needsRealPostgres, startReplicas, type AppProcess } from '../support/app-process.js';
import { ReplicaCalls } from '../support/replica-calls.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { collectSse } from '@nest-mcp/core/testing';

/**
 * Stream mode under faults, with two real server processes on one database, on each backend of
 * shared stream state (Redis; PostgreSQL tables + LISTEN/NOTIFY), where one process's memory cannot hide a fault:
 * - a session's message goes on one stream only, even with streams open on both replicas;
 * - what changes while a session has no stream open waits for its next GET, on any replica;
 * - a revoked token's open stream closes within a second and its session ends;
 * - a replica killed (`kill -9`) while a person's confirmation is pending: the person's answer,
 *   POSTed to the surviving replica, is refused with "call again" and the lost call gets a failure
 *   row in the audit trail (with the call's arguments and the code the client was told); the
 *   client resuming the call's stream there gets an error answer for its call instead of waiting
 *   forever; nothing was cancelled;
 * - a person's answer POSTed again (a client retrying after a lost `202`), to either replica, is
 *   acknowledged as a duplicate: the call ran once, with one audit row.
 */

const REDIS_URL = process.env.RATE_LIMIT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function until(check: () => boolean, ms = 10_000): Promise<boolean> {
  for (const start = Date.now(); !check() && Date.now() - start < ms;) await new Promise((resolve) => setTimeout(resolve, 50));
  return check();
}

for (const backend of ['redis', 'postgres'] as const) {
  describe(`stream mode under faults, two server processes (${backend})`, { skip: needsRealPostgres(), timeout: 240_000 }, () => {
    let database: TestDatabase;
    let a: AppProcess;
    let b: AppProcess;
    let token: string;
    const opened: AbortController[] = [];
    const prefix = `faults-${process.pid}-${randomBytes(3).toString('hex')}`;

    before(async () => {
      database = await createTestDatabase();
      [a, b] = await startReplicas(2, {
        databaseUrl: database.url,
        env: {
          MCP_STREAMS: 'true',
          MCP_STATE_SECRET: randomBytes(32).toString('hex'),
          ...(backend === 'redis' ? { REDIS_URL, MCP_STREAMS_KEY_PREFIX: prefix } : {}),
          RATE_LIMIT_KEY_PREFIX: prefix,
        },
      });
      token = await mintToken(database.url);
    });
    after(async () => {
      for (const controller of opened) controller.abort();
      await Promise.all([a?.stop(), b?.stop()]);
      await database?.close();
    });

    const as = (bearer = token) => new ReplicaCalls(bearer);
    const headers = (session?: string, extra: Record<string, string> = {}, bearer = token) => as(bearer).headers(session, extra);
    const rpc = ReplicaCalls.rpc;
    const openSession = (app: AppProcess, bearer = token) => as(bearer).openSession(app);
    const post = (app: AppProcess, session: string, body: string, bearer = token) => as(bearer).post(app, session, body);
    const newCustomer = (app: AppProcess) => as().newCustomer(app);
    const newInvoice = (app: AppProcess, customerId: string) => as().newInvoice(app, customerId);

    async function openGet(app: AppProcess, session: string, extra: Record<string, string> = {}, bearer = token) {
      const controller = new AbortController();
      opened.push(controller);
      const response = await fetch(app.mcpUrl, { method: 'GET', headers: headers(session, extra, bearer), signal: controller.signal });
      assert.equal(response.status, 200);
      const stream = collectSse(response);
      // The stream is the session's current one once the server answered a later request.
      await post(app, session, rpc('ping', {}, 'ping'), bearer);
      return { ...stream, close: () => controller.abort() };
    }

    /** The audit rows of `billing_invoice_cancel` calls for one invoice. */
    async function cancelRows(invoiceId: unknown) {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ outcome: string; error_code: string | null; arguments: Record<string, unknown> | null }>(
          `SELECT outcome, error_code, arguments FROM mcp_audit_events
           WHERE method = 'tools/call' AND target = 'billing_invoice_cancel' AND channel = 'mcp' AND arguments->>'invoice_id' = $1`,
          [String(invoiceId)],
        );
        return rows;
      } finally {
        await client.end();
      }
    }

    /** A `billing_invoice_cancel` call on `app`, waiting for the person's answer: its stream and the question. */
    async function cancelAsked(app: AppProcess, session: string, invoiceId: unknown, requestId: number) {
      const call = await as().callTool(
        app,
        session,
        'billing_invoice_cancel',
        { invoice_id: invoiceId, reason: 'Issued to the wrong customer' },
        requestId,
      );
      const stream = collectSse(call);
      assert.ok(await until(() => stream.events.length >= 1));
      const question = stream.events[0];
      assert.equal(question.data.method, 'elicitation/create');
      return { stream, question };
    }

    const answerOf = (questionId: unknown, action: 'accept' | 'decline' = 'accept') =>
      JSON.stringify({ jsonrpc: '2.0', id: questionId, result: action === 'accept' ? { action, content: { confirm: true } } : { action } });

    async function subscribed(app: AppProcess, uri: string, bearer = token): Promise<string> {
      const session = await openSession(app, bearer);
      const answer = await post(app, session, rpc('resources/subscribe', { uri }), bearer);
      assert.equal(answer.status, 200, answer.text);
      assert.doesNotMatch(answer.text, /"error"/);
      return session;
    }

    it('sends a change once, on the newest stream of the session, though both replicas hold one', async () => {
      const customer = await newCustomer(a);
      const uri = `billing://customers/${customer.id as string}`;
      const session = await subscribed(a, uri);
      const older = await openGet(a, session);
      const newer = await openGet(b, session);
      await newInvoice(a, customer.id as string);
      assert.ok(await until(() => newer.events.length >= 1), 'the newest stream got the change');
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(newer.events.length, 1);
      assert.equal(older.events.length, 0, 'no copy on the older stream');
      older.close();
      newer.close();
    });

    it('keeps what changed while the session had no stream open, and delivers it on the next GET, on the other replica', async () => {
      const customer = await newCustomer(a);
      const uri = `billing://customers/${customer.id as string}`;
      const session = await subscribed(a, uri);
      await newInvoice(a, customer.id as string);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const stream = await openGet(b, session);
      assert.ok(await until(() => stream.events.length >= 1), 'the backlog was delivered');
      assert.equal(stream.events[0].data.method, 'notifications/resources/updated');
      assert.equal(stream.events[0].data.params.uri, uri);
      stream.close();
    });

    it("closes a revoked token's open stream within a second and ends its session", async () => {
      const label = `revoked-${randomBytes(3).toString('hex')}`;
      const revocable = await mintToken(database.url, { label });
      const customer = await newCustomer(a);
      const uri = `billing://customers/${customer.id as string}`;
      const session = await subscribed(a, uri, revocable);
      const stream = await openGet(a, session, {}, revocable);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query('UPDATE access_tokens SET revoked_at = now() WHERE label = $1', [label]);
      } finally {
        await client.end();
      }
      const revokedAt = Date.now();
      const closed = await Promise.race([stream.ended.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 3_000))]);
      assert.equal(closed, true, 'the stream closed');
      assert.ok(Date.now() - revokedAt < 2_000, `closed after ${Date.now() - revokedAt} ms`);
      await newInvoice(a, customer.id as string);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(stream.events.length, 0, 'nothing after the revocation');
      const refused = await post(b, session, rpc('ping'), revocable);
      assert.equal(refused.status, 401, 'the token is refused on every replica');
    });

    it('an answer POSTed again (a client retrying after a lost 202), to either replica, is acknowledged: the call ran once, one audit row', async () => {
      const customer = await newCustomer(a);
      const invoice = await newInvoice(a, customer.id as string);
      const session = await openSession(a);
      const { stream, question } = await cancelAsked(a, session, invoice.id, 8);
      const yes = answerOf(question.data.id);

      const first = await post(b, session, yes);
      assert.equal(first.status, 202, first.text);
      await stream.ended;
      const response = stream.events.at(-1)?.data;
      assert.equal(response?.id, 8);
      assert.equal(response?.result?.structuredContent?.data?.status, 'cancelled', JSON.stringify(response));

      for (const [name, app] of [
        ['B', b],
        ['A', a],
      ] as const) {
        const again = await post(app, session, yes);
        assert.equal(again.status, 202, `the same answer again on ${name}: ${again.text}`);
        assert.equal(again.text, '', 'acknowledged as a delivered answer is: no body');
      }
      const changed = await post(a, session, answerOf(question.data.id, 'decline'));
      assert.equal(changed.status, 400, 'another answer to a question already answered is not taken for a duplicate');
      assert.match(changed.text, /already answered.*first answer/);

      assert.deepEqual(
        (await cancelRows(invoice.id)).map((row) => row.outcome),
        ['success'],
        'one row: the call, run once; nothing audited for the repeated answers',
      );
      const invoiceNow = await fetch(`${b.baseUrl}/v1/invoices/${invoice.id as string}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(((await invoiceNow.json()) as { status?: string }).status, 'cancelled');
    });

    it('a replica killed while a confirmation is pending: the answer is refused with "call again", the call is audited as failed with its arguments and the code the client got, the resumed stream answers it', async () => {
      const customer = await newCustomer(b);
      const invoice = await newInvoice(b, customer.id as string);
      const session = await openSession(a);
      const { question } = await cancelAsked(a, session, invoice.id, 7);
      assert.ok(question.id, 'the question has an event id');

      a.kill('SIGKILL');
      await a.exited;

      const answer = await post(b, session, answerOf(question.data.id));
      assert.equal(answer.status, 400);
      assert.match(answer.text, /No call is waiting for this answer.*call billing_invoice_cancel again/);
      const told = (JSON.parse(answer.text) as { error: { code: number } }).error;

      const rows = await cancelRows(invoice.id);
      assert.deepEqual(
        rows.map((row) => ({ outcome: row.outcome, code: row.error_code, arguments: row.arguments })),
        [{ outcome: 'error', code: String(told.code), arguments: { invoice_id: invoice.id, reason: 'Issued to the wrong customer' } }],
        'one failure row for the lost call: its arguments, and the code the client was told',
      );
      const retried = await post(b, session, answerOf(question.data.id));
      assert.equal(retried.status, 400, 'the answer sent again is refused the same way');
      assert.match(retried.text, /No call is waiting for this answer.*call billing_invoice_cancel again/);
      assert.equal((await cancelRows(invoice.id)).length, 1, 'and leaves no second row');

      const resumed = await fetch(b.mcpUrl, { method: 'GET', headers: headers(session, { 'last-event-id': question.id }) });
      assert.equal(resumed.status, 200);
      const replay = collectSse(resumed);
      await replay.ended;
      const last = replay.events.at(-1)?.data;
      assert.equal(last?.id, 7, 'an answer for the call itself');
      assert.match(String(last?.error?.message), /did not finish/);

      const invoiceNow = await fetch(`${b.baseUrl}/v1/invoices/${invoice.id as string}`, { headers: { authorization: `Bearer ${token}` } });
      assert.notEqual(((await invoiceNow.json()) as { status?: string }).status, 'cancelled', 'nothing was cancelled');
    });
  });
}
