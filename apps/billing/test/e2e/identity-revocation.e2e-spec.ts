import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { queryRows } from '../support/test-database.js';
import { RequestContext } from '../../src/context/request-context.js';
import { PersonalTokenService, type MintRequest } from '../../src/identity/personal-token.service.js';
import { TokenCache } from '../../src/identity/token-cache.js';
import { appsOnOneDatabase, type AppsOnOneDatabase } from '../support/apps-on-one-database.js';
import type { TestApp } from '../support/test-app.js';

/**
 * Two instances of the application on one database, the way replicas run: each keeps its own
 * verified-token cache (real PostgreSQL; the embedded database runs without one). A token revoked
 * through A, or by plain SQL, is refused by B within 1 s (README, identity); an expired token is
 * refused at its expiry, cached or not.
 */
const BOUND_MS = 1_000;
/** Read before appsOnOneDatabase() points DATABASE_URL at the test's own database. */
const REAL_POSTGRES = Boolean(process.env.DATABASE_URL);

describe('token revocation across instances', { timeout: 60_000 }, () => {
  let apps: AppsOnOneDatabase;
  let a: TestApp;
  let b: TestApp;

  before(async () => {
    apps = await appsOnOneDatabase();
    a = await apps.start();
    b = await apps.start();
  });
  after(async () => {
    await apps?.close();
  });

  const mint = (request: Partial<MintRequest> = {}) =>
    RequestContext.run({ channel: 'system' }, () =>
      a.app
        .get(PersonalTokenService)
        .mint({ email: 'admin@demo.test', scopes: ['billing:read'], workspaceSlug: 'demo', surfaces: ['api'], ...request }),
    );
  const statusOn = async (app: TestApp, token: string) =>
    (await fetch(`${app.baseUrl}/v1/customers`, { headers: { authorization: `Bearer ${token}` } })).status;
  /** Polls `app` until the token is refused or the deadline passes; says whether it was refused in time. */
  const refusedBy = async (app: TestApp, token: string, deadline: number): Promise<boolean> => {
    for (;;) {
      if ((await statusOn(app, token)) === 401) return true;
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  /** Uses the token on both instances until each has it cached (when the instance caches). */
  const warm = async (token: string) => {
    for (const app of [a, b]) {
      for (let i = 0; i < 3; i++) assert.equal(await statusOn(app, token), 200);
    }
  };

  it('runs the cache on a real PostgreSQL only (the embedded one shares one backend between connections)', async () => {
    const cache = b.app.get(TokenCache);
    // The listener connects in the background after the boot: give it a bounded while.
    const deadline = Date.now() + 5_000;
    while (REAL_POSTGRES && !cache.active && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(cache.active, REAL_POSTGRES);
  });

  it('a token revoked through A is refused by B within 1 s', async () => {
    const { token, id } = await mint();
    await warm(token);
    await a.app.get(PersonalTokenService).revoke(id);
    const deadline = Date.now() + BOUND_MS;
    assert.ok(await refusedBy(b, token, deadline), 'B refused the revoked token within 1 s');
    assert.equal(await statusOn(a, token), 401);
  });

  it('a token revoked by plain SQL (no application code) is refused by both within 1 s', async () => {
    const { token, id } = await mint();
    await warm(token);
    await queryRows(process.env.DATABASE_URL!, 'UPDATE access_tokens SET revoked_at = now() WHERE id = $1', [id]);
    const deadline = Date.now() + BOUND_MS;
    assert.ok(await refusedBy(a, token, deadline), 'A refused it within 1 s');
    assert.ok(await refusedBy(b, token, deadline), 'B refused it within 1 s');
  });

  it('a cached token is refused from its expiry on, exactly', async () => {
    const { token, expiresAt } = await mint({ expiresInMs: 600 });
    await warm(token);
    await new Promise((resolve) => setTimeout(resolve, Math.max(expiresAt!.getTime() - Date.now(), 0) + 1));
    for (const app of [a, b]) {
      const response = await fetch(`${app.baseUrl}/v1/customers`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(response.status, 401);
      assert.match(((await response.json()) as { message: string }).message, /expired/);
    }
  });
});
