import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DEMO_TOKEN_LABEL } from '../../src/demo/demo-mode.js';
import { callStateless } from '@nest-mcp/core/testing';
import { startAppProcess, type AppProcess } from '../support/app-process.js';
import { createTestDatabase, queryRows, type TestDatabase } from '../support/test-database.js';

/**
 * Demo mode of the real server process (`node dist/main.js`): no demo data, password or token in
 * production; one live demo token at a time in demo mode; a DEMO that is not true/false stops the boot.
 */

/** The demo token is issued for the MCP endpoint: a 2026-era tools/list with it. */
const toolsListStatus = (app: AppProcess, token: string) =>
  callStateless(app.mcpUrl, 'tools/list', {}, { token }).then((answer) => answer.status);

describe('demo mode of the server process', { timeout: 180_000 }, () => {
  let database: TestDatabase;
  const running: AppProcess[] = [];

  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await Promise.all(running.map((app) => app.stop()));
    await database?.close();
  });

  it('NODE_ENV=production with a DATABASE_URL seeds, mints and prints nothing demo (not the token, the password or the sign-in hint)', async () => {
    const app = await startAppProcess({
      databaseUrl: database.url,
      name: 'production',
      expectDemoToken: false,
      startTimeoutMs: 30_000,
      env: { NODE_ENV: 'production', MCP_STATE_SECRET: randomBytes(32).toString('hex') },
    });
    running.push(app);
    await app.stop();
    const output = app.output();
    assert.doesNotMatch(output, /Demo token/);
    assert.doesNotMatch(output, /Demo admin password|sign in as|@demo\.test/);
    assert.match(output, /Demo mode off/);
    assert.deepEqual(await queryRows(database.url, `SELECT email FROM users`), [], 'no demo users');
    assert.deepEqual(await queryRows(database.url, `SELECT slug FROM workspaces`), [], 'no demo workspace');
    assert.deepEqual(await queryRows(database.url, `SELECT id FROM access_tokens`), [], 'no token minted');
  });

  it("a second demo boot revokes the first boot's token (401) and leaves exactly one unrevoked demo token", async () => {
    const first = await startAppProcess({ databaseUrl: database.url, name: 'demo-1' });
    running.push(first);
    assert.equal(await toolsListStatus(first, first.token), 200);
    await first.stop();

    const second = await startAppProcess({ databaseUrl: database.url, name: 'demo-2' });
    running.push(second);
    assert.notEqual(second.token, first.token);
    assert.equal(await toolsListStatus(second, first.token), 401, "the first boot's token is refused");
    assert.equal(await toolsListStatus(second, second.token), 200);
    const live = await queryRows<{ count: number }>(
      database.url,
      `SELECT count(*)::int AS count FROM access_tokens WHERE label = $1 AND revoked_at IS NULL`,
      [DEMO_TOKEN_LABEL],
    );
    assert.deepEqual(live, [{ count: 1 }]);
    await second.stop();
  });

  it('DEMO other than an on/off value stops the boot with a message naming DEMO', async () => {
    await assert.rejects(
      startAppProcess({ databaseUrl: database.url, name: 'bad-demo', startTimeoutMs: 30_000, env: { DEMO: 'maybe' } }),
      /exited during start[\s\S]*DEMO must be true or false \(.*\), got "maybe"/,
    );
  });
});
