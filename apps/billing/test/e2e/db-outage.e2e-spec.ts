import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { billingAppModule } from '../support/billing-app.js';
import { RequestContext } from '../../src/context/request-context.js';
import { seedDemo } from '../../src/demo/demo-seed.js';
import { PrismaService } from '../../src/database/prisma.service.js';
import { PersonalTokenService } from '../../src/identity/personal-token.service.js';
import { ALL_SCOPES } from '../../src/app.scopes.js';
import { callTool, type HttpAnswer, type ToolAnswer } from '@nest-mcp/core/testing';
import { TcpProxy, hostPort } from '../support/tcp-proxy.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { NO_LEDGER_FAULTS, checkLedger, createCustomer, invoiceWrite, ledgerFaults } from '../support/write-ledger.js';

/**
 * A database outage mid-load: the application reaches its database through a TCP proxy; the
 * proxy is cut (every connection destroyed, new ones refused) while clients write, then restored.
 * During the outage every answer is a 503 with Retry-After (MCP: a JSON-RPC error with the MCP
 * headers; REST: JSON), readiness is 503 and liveness 200; afterwards the pool reconnects by
 * itself, clients retry with the same idempotency keys, and the database holds every write once,
 * whole, with its one audit row. The shared PostgreSQL itself is never stopped.
 * Runs on DATABASE_URL, else on the embedded database.
 */

const WRITES = 60;
const WORKERS = 6;
const PREFIX = `outage-${process.pid}-`;
const CUSTOMER_EMAIL = `outage-${process.pid}@outage.test`;
const POOL_SIZE = 10;
const TIMEOUT = { timeout: 120_000 };

/** `promise`, or a failure (never a hang) after `ms`. */
async function within<T>(ms: number, promise: Promise<T> | undefined, what: string): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `condition` every 10 ms; fails after `ms`, or as soon as `failed()` says the work behind it died. */
async function until(condition: () => boolean, ms: number, what: string, failed: () => unknown = () => undefined): Promise<void> {
  for (const deadline = Date.now() + ms; !condition(); await sleep(10)) {
    const failure = failed();
    if (failure) throw new Error(`${what}: ${failure}`);
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
  }
}

describe('database outage: 503 + Retry-After, nothing half-written, automatic recovery', TIMEOUT, () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let app: TestApp;
  let token: string;
  let customerId: string;
  let appClosed = false;
  const saved = { ...process.env };

  before(async () => {
    database = await createTestDatabase();
    proxy = await TcpProxy.start(hostPort(database.url));
    Object.assign(process.env, {
      DATABASE_URL: proxy.url(database.url),
      DATABASE_RETRY_AFTER_SECONDS: '1',
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      HEALTH_DB_TIMEOUT_MS: '1000',
    });
    app = await startTestApp(billingAppModule(proxy.url(database.url)));
    await seedDemo(app.app.get(PrismaService));
    token = (
      await RequestContext.run({ channel: 'system' }, () =>
        app.app
          .get(PersonalTokenService)
          .mint({ email: 'admin@demo.test', scopes: [...ALL_SCOPES], workspaceSlug: 'demo', surfaces: ['mcp', 'api'] }),
      )
    ).token;
    customerId = await createCustomer(app.baseUrl, token, CUSTOMER_EMAIL);
  });
  after(async () => {
    try {
      if (!appClosed) await within(10_000, app?.close(), 'closing the application');
    } finally {
      await proxy?.close();
      await database?.close();
    }
    for (const name of [
      'DATABASE_URL',
      'DATABASE_RETRY_AFTER_SECONDS',
      'DATABASE_CONNECT_TIMEOUT_MS',
      'DATABASE_POOL_SIZE',
      'HEALTH_DB_TIMEOUT_MS',
    ]) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  const health = async (path: string) => {
    const response = await fetch(`${app.baseUrl}${path}`);
    return { status: response.status, body: (await response.json()) as any };
  };

  it('cut mid-load: 503s with Retry-After, readiness 503, then recovery with every write once and whole', TIMEOUT, async (t) => {
    const figures = {
      requests: 0,
      acknowledged: 0,
      mcp503: 0,
      rest503: 0,
      retries: 0,
      faults: 0,
      severedConnections: 0,
      other: [] as string[],
    };
    const keys = Array.from({ length: WRITES }, (_, n) => `${PREFIX}${String(n).padStart(3, '0')}`);
    const mcp503: HttpAnswer[] = [];
    let next = 0;

    // Writers: each takes the next key and sends it until it is acknowledged, honouring Retry-After.
    const writer = async () => {
      for (let n = next++; n < WRITES; n = next++) {
        for (let attempt = 1; ; attempt++) {
          figures.requests++;
          if (attempt > 1) figures.retries++;
          let answer: ToolAnswer;
          try {
            answer = await callTool(app.mcpUrl, 'billing_invoice_create', invoiceWrite(customerId, keys[n]), {
              token,
              signal: AbortSignal.timeout(20_000),
            });
          } catch (error) {
            figures.other.push(`${(error as Error).message} ${String((error as Error).cause ?? '')}`);
            assert.ok(attempt < 30, `write ${keys[n]} never got through`);
            await sleep(200);
            continue;
          }
          const envelope = answer.status === 200 ? answer.envelope : undefined;
          if (envelope?.ok) {
            figures.acknowledged++;
            break;
          }
          if (answer.status === 503) {
            figures.mcp503++;
            if (mcp503.length < 5) mcp503.push(answer);
            await sleep(Number(answer.headers.get('retry-after')) * 1000 || 1000);
          } else {
            figures.other.push(`${answer.status} ${answer.text.slice(0, 300)}`);
            await sleep(200);
          }
          assert.ok(attempt < 30, `write ${keys[n]} never got through: ${answer.status} ${answer.text}`);
        }
        // A little pacing, so that the outage lands mid-stream.
        await sleep(10);
      }
    };
    // A REST reader alongside: its answers during the outage.
    const rest503: Response[] = [];
    let reading = true;
    const reader = async () => {
      while (reading) {
        let response: Response;
        try {
          response = await fetch(`${app.baseUrl}/v1/customers?limit=1`, {
            headers: { authorization: `Bearer ${token}` },
            signal: AbortSignal.timeout(20_000),
          });
          await response.arrayBuffer();
        } catch (error) {
          figures.other.push(`REST ${(error as Error).message}`);
          await sleep(50);
          continue;
        }
        if (response.status === 503) {
          figures.rest503++;
          if (rest503.length < 5) rest503.push(response);
        } else if (response.status !== 200) figures.other.push(`REST ${response.status}`);
        await sleep(50);
      }
    };

    let writersFailed: unknown;
    const writers = Promise.all(Array.from({ length: WORKERS }, writer)).catch((error: unknown) => {
      writersFailed = error;
      throw error;
    });
    const readerDone = reader();
    // The fault: once a fifth of the writes are in, cut the database away for 1.5 s.
    await until(
      () => figures.acknowledged >= WRITES / 5,
      30_000,
      `waiting for ${WRITES / 5} writes before the cut (${JSON.stringify(figures)})`,
      () => writersFailed,
    );
    figures.severedConnections = proxy.severed;
    await proxy.cut();
    figures.severedConnections = proxy.severed - figures.severedConnections;
    figures.faults++;
    const acknowledgedAtCut = figures.acknowledged;
    await sleep(300);
    const readyDuring = await health('/health/ready');
    const liveDuring = await health('/health/live');
    await sleep(1200);
    const acknowledgedDuringOutage = figures.acknowledged - acknowledgedAtCut;
    await proxy.restore();

    // Recovery is automatic: readiness comes back without a restart.
    let readyAfter = await health('/health/ready');
    for (const deadline = Date.now() + 10_000; readyAfter.status !== 200 && Date.now() < deadline; await sleep(200))
      readyAfter = await health('/health/ready');
    try {
      await within(60_000, writers, `the writes after the outage (${JSON.stringify(figures)})`);
    } finally {
      reading = false;
      await readerDone;
    }

    assert.equal(readyDuring.status, 503, JSON.stringify(readyDuring.body));
    assert.equal(readyDuring.body.error.database.status, 'down');
    assert.equal(liveDuring.status, 200, 'liveness does not depend on the database');
    assert.equal(readyAfter.status, 200, JSON.stringify(readyAfter.body));
    assert.ok(acknowledgedDuringOutage <= WORKERS, `at most the writes already committing when the cut came (${acknowledgedDuringOutage})`);
    assert.deepEqual(figures.other, [], 'no answer other than success or 503');

    // MCP: HTTP 503, Retry-After, a JSON-RPC error echoing the id, the MCP headers of docs/contract.md §1.3.
    assert.ok(mcp503.length > 0, 'MCP writes saw the outage');
    for (const answer of mcp503) {
      assert.equal(answer.headers.get('retry-after'), '1');
      assert.equal(answer.headers.get('mcp-protocol-version'), '2026-07-28');
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      assert.equal(answer.body.jsonrpc, '2.0');
      assert.equal(answer.body.id, 1);
      assert.equal(answer.body.error.code, -32603);
      assert.equal(answer.body.error.message, 'Database unavailable, retry after 1 s');
    }
    // REST: 503 JSON with Retry-After.
    assert.ok(rest503.length > 0, 'REST saw the outage');
    assert.equal(rest503[0].headers.get('retry-after'), '1');
    assert.match(rest503[0].headers.get('content-type') ?? '', /application\/json/);

    // Nothing lost, nothing twice, nothing half-written, every write with exactly one audit row.
    const ledger = await checkLedger(database.url, PREFIX, keys);
    assert.deepEqual(ledgerFaults(ledger), NO_LEDGER_FAULTS);
    assert.equal(ledger.invoices, WRITES);
    assert.equal(ledger.writeAudits, WRITES);
    assert.equal(figures.acknowledged, WRITES);
    t.diagnostic(
      `db-outage figures: ${figures.requests} MCP write requests for ${WRITES} writes (${figures.retries} retries), ` +
        `${figures.faults} fault (cut: ${figures.severedConnections} connections severed, refused for 1.5 s), ` +
        `${figures.mcp503} MCP 503 + ${figures.rest503} REST 503, duplicates ${ledger.duplicated.length}, losses ${ledger.lost.length}, ` +
        `half-written ${ledger.halfWritten.length}, writes without audit ${ledger.writesWithoutAudit.length} ` +
        `(${ledger.writeAudits} write audit rows, ${ledger.replayAudits} of replayed calls)`,
    );
  });

  it(
    'a request while the database is down answers 503 at once (refused connections), and the next one after restore succeeds',
    TIMEOUT,
    async () => {
      await proxy.cut();
      try {
        const started = Date.now();
        const answer = await callTool(app.mcpUrl, 'billing_customer_summary', { email: CUSTOMER_EMAIL }, { token });
        assert.equal(answer.status, 503, answer.text);
        assert.ok(Date.now() - started < 3_000, 'no waiting on a refused connection');
        const rest = await fetch(`${app.baseUrl}/v1/customers`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(rest.status, 503);
        assert.deepEqual(await rest.json(), {
          statusCode: 503,
          error: 'Service Unavailable',
          message: 'Database unavailable, retry after 1 s',
        });
      } finally {
        await proxy.restore();
      }
      const answer = await callTool(app.mcpUrl, 'billing_customer_summary', { email: CUSTOMER_EMAIL }, { token });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body.result.isError, undefined, answer.text);
    },
  );

  it(
    'cuts in the middle of transactions leave the pool whole: a full pool of writes succeeds at once, the app closes promptly',
    TIMEOUT,
    async (t) => {
      // Prisma releases a transaction's connection only after COMMIT or ROLLBACK succeeded: without
      // PrismaService handing back connections that die checked out, each cut below would take
      // connections from the pool for good, these writes would wait for one and get 503s, and
      // closing would wait forever for the pool to end.
      const prefix = `pool-${process.pid}-`;
      const keys: string[] = [];
      let cutMidway = 0;
      for (let round = 0; round < 3; round++) {
        const batch = Array.from({ length: POOL_SIZE }, (_, i) => `${prefix}${round}-${i}`);
        keys.push(...batch);
        // Invoice creations queue on a per-workspace lock inside their transactions: the cut finds most of them open.
        const answers = batch.map((key) =>
          callTool(app.mcpUrl, 'billing_invoice_create', invoiceWrite(customerId, key), { token, signal: AbortSignal.timeout(20_000) }),
        );
        await sleep(40);
        await proxy.cut();
        cutMidway += (await Promise.all(answers)).filter((answer) => answer.status === 503).length;
        await proxy.restore();
      }
      assert.ok(cutMidway > 0, 'the cuts landed in the middle of writes');

      // Retried with their keys, every write is done once and whole.
      for (const key of keys) {
        let answer = await callTool(app.mcpUrl, 'billing_invoice_create', invoiceWrite(customerId, key), { token });
        for (let attempt = 1; answer.status === 503 && attempt < 10; attempt++) {
          await sleep(200);
          answer = await callTool(app.mcpUrl, 'billing_invoice_create', invoiceWrite(customerId, key), { token });
        }
        assert.equal(answer.envelope?.ok, true, answer.text);
      }
      const ledger = await checkLedger(database.url, prefix, keys);
      assert.deepEqual(ledgerFaults(ledger), NO_LEDGER_FAULTS);
      assert.equal(ledger.invoices, keys.length);

      // The whole pool is there: as many concurrent writes as connections, all served at once.
      const capacity = Array.from({ length: POOL_SIZE }, (_, i) => `${prefix}capacity-${i}`);
      const answers = await Promise.all(
        capacity.map((key) => callTool(app.mcpUrl, 'billing_invoice_create', invoiceWrite(customerId, key), { token })),
      );
      assert.deepEqual(
        answers.map((answer) => answer.status),
        capacity.map(() => 200),
        answers.map((answer) => answer.text).join('\n'),
      );

      const started = Date.now();
      await within(5_000, app.close(), 'closing the application (the pool waits for every connection it lent)');
      appClosed = true;
      t.diagnostic(
        `pool figures: 3 cuts mid-transaction, ${cutMidway} writes answered 503 by them, all ${keys.length} retried to success; closed in ${Date.now() - started} ms`,
      );
    },
  );
});
