import assert from 'node:assert/strict';
import { get as httpGet } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { mintToken, startAppProcess, type AppProcess } from '../support/app-process.js';
import { createTestDatabase, queryRows, type TestDatabase } from '../support/test-database.js';

/**
 * SIGTERM on the real server process (`node dist/main.js`): readiness turns 503 at once, the
 * server stops accepting connections, the request in flight finishes, Nest closes (the database
 * pool with it) and the process exits 0. Runs on the embedded database too: the child process
 * connects to it over TCP.
 */

/** One GET on a new connection (no keep-alive pool): the status and body, or the socket error code. */
function freshGet(url: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const request = httpGet(url, { agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

describe('graceful shutdown on SIGTERM (server process)', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let app: AppProcess;
  /** For the REST write below: the demo token the process prints is for the MCP endpoint only. */
  let token: string;

  before(async () => {
    database = await createTestDatabase();
    app = await startAppProcess({
      databaseUrl: database.url,
      name: 'shutdown',
      env: { SHUTDOWN_DELAY_MS: '1000', SHUTDOWN_TIMEOUT_MS: '10000' },
    });
    token = await mintToken(database.url, { surfaces: ['api'] });
  });
  after(async () => {
    await app?.stop();
    await database?.close();
  });

  it(
    'a slow request in flight completes; readiness is 503 meanwhile; new connections are then refused; exit 0 with the pool closed',
    { timeout: 60_000 },
    async () => {
      assert.equal(((await freshGet(`${app.baseUrl}/health/ready`)) as { status: number }).status, 200);

      // Hold the customers table: the request below waits for it (on the embedded database, for the
      // whole open transaction), so it is still running when SIGTERM arrives.
      const holder = new pg.Client({ connectionString: database.url });
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE customers IN SHARE ROW EXCLUSIVE MODE');
      let settled = false;
      const slow = fetch(`${app.baseUrl}/v1/customers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ name: 'Shutdown Survivor', email: 'survivor@shutdown.test' }),
      }).then(async (response) => {
        settled = true;
        return { status: response.status, body: (await response.json()) as { id?: string } };
      });
      try {
        await sleep(500);
        assert.equal(settled, false, 'the request is in flight');

        app.kill('SIGTERM');
        for (const deadline = Date.now() + 2_000; !/Shutting down:/.test(app.output()) && Date.now() < deadline;) await sleep(10);
        // During SHUTDOWN_DELAY_MS the server still accepts connections, and readiness says 503.
        const ready = await freshGet(`${app.baseUrl}/health/ready`);
        assert.ok('status' in ready && ready.status === 503, `readiness during shutdown: ${JSON.stringify(ready)}`);
        assert.equal(JSON.parse(ready.body).error?.shutdown?.message, 'shutting down', ready.body);

        // Then it stops accepting connections. A probe that reaches the listen backlog just as the
        // server closes it is reset (ECONNRESET) rather than refused: the next one is refused.
        let refused: { status: number; body: string } | { error: string } | undefined;
        for (const deadline = Date.now() + 3_000; Date.now() < deadline; await sleep(50)) {
          refused = await freshGet(`${app.baseUrl}/health/live`);
          if ('error' in refused && refused.error !== 'ECONNRESET') break;
        }
        assert.deepEqual(refused, { error: 'ECONNREFUSED' });
        assert.equal(settled, false, 'the request is still in flight, and the process still runs');
        assert.equal(app.child.exitCode, null);
      } finally {
        await holder.query('COMMIT');
        await holder.end();
      }

      const answer = await slow;
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      const exit = await app.exited;
      assert.deepEqual(exit, { code: 0, signal: null }, app.output());
      const output = app.output();
      assert.match(output, /SIGTERM received/);
      assert.match(output, /Shutting down: readiness is 503; 1 request\(s\) in flight/);
      assert.match(output, /Shutdown complete in \d+ ms: \d+ request\(s\) finished, 0 cut, database pool closed/);

      const rows = await queryRows<{ id: string }>(database.url, 'SELECT id FROM customers WHERE email = $1', ['survivor@shutdown.test']);
      assert.deepEqual(
        rows.map((r) => r.id),
        [answer.body.id],
        'the in-flight write committed, once',
      );
    },
  );
});
