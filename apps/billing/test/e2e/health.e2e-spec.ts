import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ShutdownState } from '../../src/health/shutdown.state.js';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';

/**
 * Liveness and readiness on the real application (embedded database, or DATABASE_URL). The
 * database outage (readiness 503 while the database is cut) is in db-outage.e2e-spec.ts; the
 * SIGTERM sequence in shutdown.e2e-spec.ts.
 */
describe('health endpoints', () => {
  let t: BillingTestApp;
  const get = async (path: string) => {
    const response = await fetch(`${t.baseUrl}${path}`);
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };

  before(async () => {
    t = await startBillingApp();
  });
  after(() => t?.close());

  it('GET /health/live: 200 without a token, no database involved, not cacheable', async () => {
    const { status, headers, body } = await get('/health/live');
    assert.equal(status, 200);
    assert.equal(body.status, 'ok');
    assert.equal(body.info.process.status, 'up');
    assert.equal(typeof body.info.process.uptimeSeconds, 'number');
    assert.match(headers.get('cache-control') ?? '', /no-store/);
  });

  it('GET /health/ready: 200 without a token when the database answers', async () => {
    const { status, body } = await get('/health/ready');
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.status, 'ok');
    assert.equal(body.info.database.status, 'up');
    assert.equal(body.info.shutdown.status, 'up');
  });

  it('probes are cheap: 50 concurrent readiness probes all answer 200', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => get('/health/ready')));
    assert.deepEqual([...new Set(answers.map((a) => a.status))], [200]);
  });

  it('other routes still need a token', async () => {
    assert.equal((await fetch(`${t.baseUrl}/v1/customers`)).status, 401);
  });

  it('once shutdown has begun, readiness is 503 and liveness stays 200', async () => {
    t.app.get(ShutdownState).begin();
    const ready = await get('/health/ready');
    assert.equal(ready.status, 503);
    assert.equal(ready.body.status, 'error');
    assert.equal(ready.body.error.shutdown.status, 'down');
    assert.equal(ready.body.error.shutdown.message, 'shutting down');
    assert.equal((await get('/health/live')).status, 200);
  });
});
