import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEMO_ACCESS_FILE_ENV, DEMO_TOKEN_LABEL, demoConfigFromEnv, startDemo } from '../../src/demo/demo-mode.js';
import { DEMO_ADMIN_EMAIL } from '../../src/demo/demo-seed.js';
import { PersonalTokenService } from '../../src/identity/personal-token.service.js';
import { verifyPanelPassword } from '../../src/panel/panel-password.js';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';

/**
 * `npm run start:dev` restarts the server on every save: with DEMO_ACCESS_FILE (set by
 * scripts/start-dev.mjs) each boot keeps the demo password and token of the last one while the
 * token is valid, instead of revoking the token a connected client uses and printing a new password.
 */

/** One boot's demo step: what it would print. */
async function boot(t: BillingTestApp, env: NodeJS.ProcessEnv): Promise<{ password?: string; token: string }> {
  const demo = await startDemo(t.app, demoConfigFromEnv(env));
  const lines: string[] = [];
  const log = console.log;
  console.log = (line: string) => lines.push(line);
  try {
    demo.print();
  } finally {
    console.log = log;
  }
  const text = lines.join('\n');
  return { password: /Demo admin password .*: (\S+)$/m.exec(text)?.[1], token: /Demo token: (\S+)/.exec(text)![1] };
}

describe('demo access across the restarts of npm run start:dev', () => {
  let t: BillingTestApp;
  let dir: string;
  let file: string;
  before(async () => {
    t = await startBillingApp();
    dir = mkdtempSync(join(tmpdir(), 'demo-access-'));
    file = join(dir, '.data', 'demo-access.json');
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  const liveDemoTokens = () => t.prisma.client.accessToken.count({ where: { label: DEMO_TOKEN_LABEL, revokedAt: null } });
  const valid = async (token: string) => (await t.app.get(PersonalTokenService).check(token)).ok;
  const adminPasswordIs = async (password: string) => {
    const user = await t.prisma.client.user.findUniqueOrThrow({ where: { email: DEMO_ADMIN_EMAIL } });
    return verifyPanelPassword(user.passwordHash!, password);
  };

  it('a restart prints the same password and token, and the token still works', async () => {
    const first = await boot(t, { [DEMO_ACCESS_FILE_ENV]: file });
    assert.ok(first.password);
    assert.ok(existsSync(file));
    assert.equal(statSync(file).mode & 0o777, 0o600, 'the file holds a live credential: its owner only');

    const second = await boot(t, { [DEMO_ACCESS_FILE_ENV]: file });
    assert.deepEqual(second, first);
    assert.equal(await valid(second.token), true);
    assert.equal(await adminPasswordIs(first.password), true);
    assert.equal(await liveDemoTokens(), 1);
  });

  it('a kept token that was revoked meanwhile is replaced; the password stays', async () => {
    const kept = await boot(t, { [DEMO_ACCESS_FILE_ENV]: file });
    await t.prisma.client.accessToken.updateMany({ where: { label: DEMO_TOKEN_LABEL }, data: { revokedAt: new Date() } });
    const next = await boot(t, { [DEMO_ACCESS_FILE_ENV]: file });
    assert.notEqual(next.token, kept.token);
    assert.equal(next.password, kept.password);
    assert.equal(await valid(next.token), true);
    assert.equal(await boot(t, { [DEMO_ACCESS_FILE_ENV]: file }).then((again) => again.token), next.token);
  });

  it('DEMO_ADMIN_PASSWORD is used and never written down', async () => {
    const chosen = await boot(t, { [DEMO_ACCESS_FILE_ENV]: file, DEMO_ADMIN_PASSWORD: 'chosen-password-1' });
    assert.equal(chosen.password, undefined, 'a chosen password is not printed');
    assert.doesNotMatch(readFileSync(file, 'utf8'), /chosen-password-1/);
    assert.equal(await adminPasswordIs('chosen-password-1'), true);
  });

  it('without DEMO_ACCESS_FILE (npm start) every boot revokes the last demo token and prints a new one', async () => {
    const kept = await boot(t, { [DEMO_ACCESS_FILE_ENV]: file });
    const plain = await boot(t, {});
    assert.notEqual(plain.token, kept.token);
    assert.notEqual(plain.password, kept.password);
    assert.equal(await valid(kept.token), false);
    assert.equal(await liveDemoTokens(), 1);
  });
});
