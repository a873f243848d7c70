import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { withEnv } from '../support/apps-on-one-database.js';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { PanelVisitor, addMember, csrfOf, setPanelPassword } from '../support/panel.js';

/** Admin pages: sign-in, session cookie, CSRF, sign-out, headers (real app, real database). */

const PASSWORD = 'correct horse battery staple';
const SOME_APPROVAL = '/admin/approvals/3f2a7c9e-1b4d-4e8f-9a6b-2c5d7e9f0a1b';

function cookieLine(lines: string[], name: string): string {
  const line = lines.find((l) => l.startsWith(`${name}=`));
  assert.ok(line, `no ${name} cookie in ${JSON.stringify(lines)}`);
  return line;
}

function assertPanelHeaders(headers: Headers): void {
  const csp = headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/);
  assert.match(csp, /form-action 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /script-src|unsafe-inline/);
  assert.equal(headers.get('x-content-type-options'), 'nosniff');
  assert.equal(headers.get('referrer-policy'), 'no-referrer');
  assert.equal(headers.get('cache-control'), 'no-store');
}

describe('admin pages: sign-in and sessions', () => {
  let t: BillingTestApp;

  before(async () => {
    t = await startBillingApp();
    await setPanelPassword(t, 'admin@demo.test', PASSWORD);
  });
  after(() => t?.close());

  it('sends a visitor without a session to sign-in, keeping where they were going', async () => {
    const visitor = new PanelVisitor(t.baseUrl);
    const list = await visitor.get('/admin/approvals');
    assert.equal(list.status, 303);
    assert.equal(list.location, '/admin/login?next=%2Fadmin%2Fapprovals');
    const one = await visitor.get(SOME_APPROVAL);
    assert.equal(one.status, 303);
    assert.equal(one.location, `/admin/login?next=${encodeURIComponent(SOME_APPROVAL)}`);
    assertPanelHeaders(one.headers);
    assert.equal((await visitor.get('/admin')).location, '/admin/login?next=%2Fadmin');
    // A POST without a session changes nothing and is sent to sign-in too.
    const decide = await visitor.post(`${SOME_APPROVAL}/decision`, { decision: 'continue' });
    assert.equal(decide.status, 303);
    assert.equal(decide.location, `/admin/login?next=${encodeURIComponent(SOME_APPROVAL)}`);
  });

  it('answers a link followed from another site with a same-origin re-open (SameSite=Strict cookies are withheld there)', async () => {
    const visitor = new PanelVisitor(t.baseUrl);
    const page = await visitor.get(SOME_APPROVAL, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' });
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`<meta http-equiv="refresh" content="0;url=${SOME_APPROVAL}">`));
    assertPanelHeaders(page.headers);
  });

  it('serves the sign-in form with a CSRF field bound to an HttpOnly SameSite=Strict cookie, and the panel headers', async () => {
    const visitor = new PanelVisitor(t.baseUrl);
    const form = await visitor.get(`/admin/login?next=${encodeURIComponent(SOME_APPROVAL)}`);
    assert.equal(form.status, 200);
    assert.match(form.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
    assertPanelHeaders(form.headers);
    assert.equal(form.headers.get('x-frame-options'), 'DENY');
    const line = cookieLine(form.setCookies, 'panel_login');
    assert.match(line, /; HttpOnly/);
    assert.match(line, /; SameSite=Strict/);
    assert.match(line, /; Path=\/admin/);
    assert.equal(csrfOf(form.text), visitor.cookies.get('panel_login'));
    assert.match(form.text, new RegExp(`name="next" value="${SOME_APPROVAL}"`));
    assert.match(form.text, /type="password"/);
  });

  it('signs in with the right password: session cookie HttpOnly, SameSite=Strict, Path=/admin, 8 h; only its hash is stored', async () => {
    const visitor = new PanelVisitor(t.baseUrl);
    const answer = await visitor.signIn('Admin@Demo.test', PASSWORD, SOME_APPROVAL);
    assert.equal(answer.status, 303, answer.text);
    assert.equal(answer.location, SOME_APPROVAL);
    const line = cookieLine(answer.setCookies, 'panel_session');
    assert.match(line, /; HttpOnly/);
    assert.match(line, /; SameSite=Strict/);
    assert.match(line, /; Path=\/admin/);
    assert.match(line, /; Max-Age=28800/);
    assert.doesNotMatch(line, /; Secure/, 'plain http on loopback: no Secure flag');
    assert.ok(!visitor.cookies.has('panel_login'), 'the sign-in form secret is cleared');
    const secret = visitor.cookies.get('panel_session')!;
    assert.ok(secret.length >= 40);
    const row = await t.prisma.client.panelSession.findUnique({ where: { id: createHash('sha256').update(secret).digest('hex') } });
    assert.ok(row, 'session stored under the SHA-256 of the cookie');
    assert.equal(await t.prisma.client.panelSession.count({ where: { id: secret } }), 0);
    assert.ok(Math.abs(row.expiresAt.getTime() - Date.now() - 8 * 3_600_000) < 60_000);
    const list = await visitor.get('/admin/approvals');
    assert.equal(list.status, 200);
    assert.match(list.text, /Demo Admin/);
    assert.match(list.text, /Nothing is waiting for your approval/);
    // Signed in already: the sign-in page goes straight on.
    assert.equal((await visitor.get('/admin/login?next=%2Fadmin%2Fapprovals')).location, '/admin/approvals');
  });

  it('marks the session cookie Secure when the panel is served over https (PUBLIC_URL)', async () => {
    // PUBLIC_URL is a setting of the boot: an application of its own (a loopback connection still accepts 127.0.0.1).
    const https = await withEnv({ PUBLIC_URL: 'https://billing.example.test' }, () => startBillingApp());
    try {
      await setPanelPassword(https, 'admin@demo.test', PASSWORD);
      const answer = await new PanelVisitor(https.baseUrl).signIn('admin@demo.test', PASSWORD);
      assert.match(cookieLine(answer.setCookies, 'panel_session'), /; Secure/);
    } finally {
      await https.close();
    }
  });

  it('refuses a wrong password, an unknown email and a user without a panel password alike (401, no session)', async () => {
    await addMember(t, { email: 'tokens-only@demo.test', name: 'Tokens Only', workspace: 'demo', role: 'admin' });
    for (const [email, password] of [
      ['admin@demo.test', 'wrong password'],
      ['nobody@demo.test', PASSWORD],
      ['tokens-only@demo.test', ''],
      ['tokens-only@demo.test', 'anything'],
    ]) {
      const visitor = new PanelVisitor(t.baseUrl);
      const answer = await visitor.signIn(email, password);
      assert.equal(answer.status, 401, `${email}: ${answer.text}`);
      assert.match(answer.text, /Wrong email or password\./);
      assert.ok(!visitor.cookies.has('panel_session'));
      assert.ok(!answer.setCookies.some((l) => l.startsWith('panel_session=')));
      assert.match(answer.text, new RegExp(`value="${email.replace('.', '\\.')}"`), 'the email is kept in the form');
      assert.doesNotMatch(answer.text, /value="wrong password"|value="correct horse/);
    }
  });

  it('takes about as long for an unknown email as for a wrong password (a dummy hash is verified)', async () => {
    const time = async (email: string) => {
      const visitor = new PanelVisitor(t.baseUrl);
      const form = await visitor.get('/admin/login');
      const started = performance.now();
      const answer = await visitor.post('/admin/login', { _csrf: csrfOf(form.text), email, password: 'not it' });
      assert.equal(answer.status, 401);
      return performance.now() - started;
    };
    await time('warmup@demo.test');
    await addMember(t, { email: 'no-password@demo.test', name: 'No Password', workspace: 'demo', role: 'viewer' });
    // Interleaved, so that load from other test files running in parallel hits all three alike.
    const real: number[] = [];
    const unknown: number[] = [];
    const noPassword: number[] = [];
    for (let i = 0; i < 5; i++) {
      real.push(await time('admin@demo.test'));
      unknown.push(await time(`ghost${i}@demo.test`));
      noPassword.push(await time('no-password@demo.test'));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const [r, u, n] = [median(real), median(unknown), median(noPassword)];
    console.log(
      `# sign-in timing (median of 5, ms): wrong password ${r.toFixed(1)}, unknown email ${u.toFixed(1)}, user without a password ${n.toFixed(1)}`,
    );
    assert.ok(u > r * 0.4 && u < r * 2.5, `unknown email ${u} ms vs wrong password ${r} ms`);
    assert.ok(n > r * 0.4 && n < r * 2.5, `no password ${n} ms vs wrong password ${r} ms`);
  });

  it('refuses a sign-in POST without the form secret (403) and never redirects off the panel after sign-in', async () => {
    const stranger = new PanelVisitor(t.baseUrl);
    const forged = await stranger.post('/admin/login', { email: 'admin@demo.test', password: PASSWORD });
    assert.equal(forged.status, 403);
    assert.ok(!stranger.cookies.has('panel_session'));
    for (const next of [
      '//evil.test/admin',
      'https://evil.test/admin',
      '/admin/../v1/invoices',
      '/adminx',
      '/admin/%2e%2e/x',
      '/admin\\evil',
      'javascript:alert(1)',
      '/admin/login',
    ]) {
      const visitor = new PanelVisitor(t.baseUrl);
      const answer = await visitor.signIn('admin@demo.test', PASSWORD, next);
      assert.equal(answer.status, 303);
      assert.equal(answer.location, '/admin/approvals', next);
    }
  });

  it('refuses a POST without the session CSRF token (403 page), then signs out with it', async () => {
    const visitor = new PanelVisitor(t.baseUrl);
    await visitor.signIn('admin@demo.test', PASSWORD);
    const page = await visitor.get('/admin/approvals');
    const token = csrfOf(page.text);
    for (const form of <Array<Record<string, string>>>[{}, { _csrf: '' }, { _csrf: `${token}x` }, { _csrf: token.slice(1) }]) {
      const refused = await visitor.post('/admin/logout', form);
      assert.equal(refused.status, 403);
      assert.match(refused.text, /Request refused/);
      assert.match(refused.text, /Nothing was done/);
      assertPanelHeaders(refused.headers);
    }
    assert.equal((await visitor.get('/admin/approvals')).status, 200, 'still signed in');
    const secret = visitor.cookies.get('panel_session')!;
    const out = await visitor.post('/admin/logout', { _csrf: token });
    assert.equal(out.status, 303);
    assert.equal(out.location, '/admin/login');
    assert.match(cookieLine(out.setCookies, 'panel_session'), /Expires=Thu, 01 Jan 1970/);
    assert.equal(await t.prisma.client.panelSession.count({ where: { id: createHash('sha256').update(secret).digest('hex') } }), 0);
    // The old cookie is dead even if a browser kept it.
    visitor.cookies.set('panel_session', secret);
    assert.equal((await visitor.get('/admin/approvals')).status, 303);
  });

  it('ends a session at its expiry', async () => {
    const visitor = new PanelVisitor(t.baseUrl);
    await visitor.signIn('admin@demo.test', PASSWORD);
    const id = createHash('sha256').update(visitor.cookies.get('panel_session')!).digest('hex');
    await t.prisma.client.panelSession.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const page = await visitor.get('/admin/approvals');
    assert.equal(page.status, 303);
    assert.match(page.location ?? '', /^\/admin\/login/);
  });

  it('answers unknown panel paths with a 404 page (after sign-in) and never JSON', async () => {
    const visitor = new PanelVisitor(t.baseUrl);
    assert.equal((await visitor.get('/admin/nope')).status, 303);
    await visitor.signIn('admin@demo.test', PASSWORD);
    const page = await visitor.get('/admin/nope/deeper');
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(page.text, /Not found/);
    assertPanelHeaders(page.headers);
  });

  it('throttles repeated failures for one account from one address (429), even with the right password from there', async () => {
    await addMember(t, { email: 'target@demo.test', name: 'Target', workspace: 'demo', role: 'admin', password: PASSWORD });
    for (let i = 0; i < 10; i++) assert.equal((await new PanelVisitor(t.baseUrl).signIn('target@demo.test', `guess ${i}`)).status, 401);
    const blocked = await new PanelVisitor(t.baseUrl).signIn('target@demo.test', PASSWORD);
    assert.equal(blocked.status, 429);
    assert.match(blocked.text, /Too many failed sign-ins/);
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
    // Another account is not affected.
    assert.equal((await new PanelVisitor(t.baseUrl).signIn('admin@demo.test', PASSWORD)).status, 303);
  });

  it('10 wrong passwords from one address do not lock the real user out from another address; the guessing address stays blocked', async () => {
    await addMember(t, { email: 'victim@demo.test', name: 'Victim', workspace: 'demo', role: 'admin', password: PASSWORD });
    const attacker = '127.0.0.2';
    for (let i = 0; i < 10; i++)
      assert.equal((await new PanelVisitor(t.baseUrl, attacker).signIn('victim@demo.test', `guess ${i}`)).status, 401);
    assert.equal((await new PanelVisitor(t.baseUrl, attacker).signIn('victim@demo.test', 'guess 10')).status, 429);
    assert.equal(
      (await new PanelVisitor(t.baseUrl, attacker).signIn('victim@demo.test', PASSWORD)).status,
      429,
      'the right password from the guessing address is refused too',
    );
    const owner = new PanelVisitor(t.baseUrl, '127.0.0.3');
    const signedIn = await owner.signIn('victim@demo.test', PASSWORD);
    assert.equal(signedIn.status, 303, signedIn.text);
    assert.equal((await owner.get('/admin/approvals')).status, 200);
    assert.equal(
      (await new PanelVisitor(t.baseUrl, attacker).signIn('victim@demo.test', 'guess 11')).status,
      429,
      'still blocked after the owner signed in',
    );
  });

  it('is not opened by a bearer token (the panel has its own sessions), and REST still demands one', async () => {
    const token = await t.token();
    const page = await fetch(`${t.baseUrl}/admin/approvals`, { redirect: 'manual', headers: { authorization: `Bearer ${token}` } });
    assert.equal(page.status, 303);
    assert.equal((await fetch(`${t.baseUrl}/v1/invoices`)).status, 401);
  });
});
