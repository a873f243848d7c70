import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { mintToken, needsRealPostgres, startReplicas, type AppProcess } from '../support/app-process.js';
import { ReplicaCalls } from '../support/replica-calls.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { sseEvents, type SseEvent } from '@nest-mcp/core/testing';

/**
 * Stream mode across two server processes (the real application, `MCP_STREAMS=true`) sharing
 * one PostgreSQL and one Redis: a session opened on A is served and ended on B; a destructive
 * call waiting on A for the person's yes gets it from an answer POSTed to B; a subscription on
 * A hears a REST write made on B; a stream begun on A is resumed on B.
 */

const REDIS_URL = process.env.RATE_LIMIT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('stream mode on two server processes (PostgreSQL + Redis)', { skip: needsRealPostgres(), timeout: 180_000 }, () => {
  let database: TestDatabase;
  let a: AppProcess;
  let b: AppProcess;
  /** For both surfaces: these tests write over REST on one replica and listen over MCP on the other. */
  let token: string;
  const prefix = `streams-${process.pid}-${randomBytes(3).toString('hex')}`;

  before(async () => {
    database = await createTestDatabase();
    [a, b] = await startReplicas(2, {
      databaseUrl: database.url,
      env: {
        MCP_STREAMS: 'true',
        // What replicas must share: the requestState key (it also signs server→client request ids), Redis.
        MCP_STATE_SECRET: randomBytes(32).toString('hex'),
        REDIS_URL,
        MCP_STREAMS_KEY_PREFIX: prefix,
        RATE_LIMIT_KEY_PREFIX: prefix,
      },
    });
    token = await mintToken(database.url);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
  });

  const calls = () => new ReplicaCalls(token);
  const headers = (session?: string, extra: Record<string, string> = {}) => calls().headers(session, extra);
  const rpc = ReplicaCalls.rpc;
  const openSession = (app: AppProcess) => calls().openSession(app);
  const newCustomer = (app: AppProcess) => calls().newCustomer(app);
  const newInvoice = (app: AppProcess, customerId: string) => calls().newInvoice(app, customerId);

  it('serves a session opened on A on B, and B ends it for both', async () => {
    const session = await openSession(a);
    const onB = await fetch(b.mcpUrl, { method: 'POST', headers: headers(session), body: rpc('tools/list') });
    assert.equal(onB.status, 200);
    assert.match(await onB.text(), /billing_invoices_search/);

    const ended = await fetch(b.mcpUrl, { method: 'DELETE', headers: headers(session) });
    assert.equal(ended.status, 204);
    const afterEnd = await fetch(a.mcpUrl, { method: 'POST', headers: headers(session), body: rpc('tools/list') });
    assert.equal(afterEnd.status, 404);
    await afterEnd.text();
  });

  it('confirms a destructive call waiting on A with the answer POSTed to B, and the call completes on A', async () => {
    const customer = await newCustomer(a);
    const invoice = await newInvoice(a, customer.id as string);
    const session = await openSession(a);

    const call = await calls().callTool(
      a,
      session,
      'billing_invoice_cancel',
      { invoice_id: invoice.id, reason: 'Issued to the wrong customer' },
      7,
    );
    assert.equal(call.status, 200);
    assert.match(call.headers.get('content-type') ?? '', /text\/event-stream/);
    const events = sseEvents(call);

    const first = (await events.next()).value as SseEvent;
    assert.equal(first.data.method, 'elicitation/create', 'the person is asked in the chat');
    const yes = JSON.stringify({ jsonrpc: '2.0', id: first.data.id, result: { action: 'accept', content: { confirm: true } } });
    const answer = await fetch(b.mcpUrl, { method: 'POST', headers: headers(session), body: yes });
    assert.equal(answer.status, 202, 'B takes the answer for the call waiting on A');

    let response: SseEvent | undefined;
    for await (const event of events) {
      if (event.data.id === 7) {
        response = event;
        break;
      }
    }
    const result = response?.data.result as { isError?: boolean; structuredContent?: { data?: { status?: string } } };
    assert.ok(result, JSON.stringify(response?.data));
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.equal(result.structuredContent?.data?.status, 'cancelled');

    // A client that lost the 202 sends its answer again, to whichever replica: a duplicate, acknowledged.
    for (const app of [b, a]) {
      const again = await fetch(app.mcpUrl, { method: 'POST', headers: headers(session), body: yes });
      assert.equal(again.status, 202, await again.text());
    }
  });

  it('an answer to a request of another session is refused, wherever it is POSTed', async () => {
    const session = await openSession(b);
    const answer = await fetch(b.mcpUrl, {
      method: 'POST',
      headers: headers(session),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'not-a-request-of-this-session',
        result: { action: 'accept', content: { confirm: true } },
      }),
    });
    assert.equal(answer.status, 400);
    await answer.text();
  });

  it('tells a subscriber on A (official 1.x client) about a REST write made on B', async () => {
    const customer = await newCustomer(b);
    const uri = `billing://customers/${customer.id as string}`;
    const client = new Client({ name: 'subscriber', version: '1.0.0' });
    const heard: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      heard.push(notification.params.uri);
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(a.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    try {
      await client.subscribeResource({ uri });
      // The GET stream the client opened after initialize is up once the server has it; writes
      // before that would be missed, so write until one is heard (each write announces anew).
      for (let i = 0; i < 40 && !heard.includes(uri); i++) {
        await newInvoice(b, customer.id as string);
        for (let j = 0; j < 10 && !heard.includes(uri); j++) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok(heard.includes(uri), `heard: ${JSON.stringify(heard)}`);
    } finally {
      await client.close();
    }
  });

  it('resumes on B a GET stream begun on A (Last-Event-ID), with what it sent after the last event read', async () => {
    const customer = await newCustomer(a);
    const uri = `billing://customers/${customer.id as string}`;
    const session = await openSession(a);
    const subscribed = await fetch(a.mcpUrl, { method: 'POST', headers: headers(session), body: rpc('resources/subscribe', { uri }) });
    assert.equal(subscribed.status, 200);
    await subscribed.text();

    const abort = new AbortController();
    const stream = await fetch(a.mcpUrl, { method: 'GET', headers: headers(session), signal: abort.signal });
    assert.equal(stream.status, 200);
    const events = sseEvents(stream);
    let first: SseEvent | undefined;
    for (let i = 0; i < 40 && !first; i++) {
      await newInvoice(b, customer.id as string);
      const next = await Promise.race([events.next(), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 500))]);
      if (next && !next.done) first = next.value;
    }
    assert.ok(first?.id, 'the GET stream on A delivered an event with an id');
    // Sent on the stream, but the client is gone before reading it (a dropped connection).
    await newInvoice(b, customer.id as string);
    await new Promise((resolve) => setTimeout(resolve, 500));
    abort.abort();

    const stop = new AbortController();
    const resumed = await fetch(b.mcpUrl, { method: 'GET', headers: headers(session, { 'last-event-id': first.id }), signal: stop.signal });
    assert.equal(resumed.status, 200);
    const replayed = await Promise.race([
      sseEvents(resumed).next(),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5_000)),
    ]);
    assert.ok(replayed && !replayed.done, 'B replayed what A had sent after that id');
    assert.equal((replayed.value.data.params as { uri?: string }).uri, uri);
    stop.abort();
  });
});
