import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { NestFactory } from '@nestjs/core';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { callStateless, rawRequest } from '@nest-mcp/core/testing';
import { bearer, billingAppModule, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { identitySettingsFromEnv } from '../../src/identity/identity.config.js';
import { createTestDatabase } from '../support/test-database.js';

interface SigningKey {
  kid: string;
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  jwk: JWK;
}

async function newKey(kid: string): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

const PUBLIC_URL = 'https://billing.example.test';
const INVALID_TOKEN_CHALLENGE = new RegExp(
  `^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="${PUBLIC_URL}/\\.well-known/oauth-protected-resource"$`,
);

describe('JWT access tokens from an external authorization server (JWKS)', () => {
  const issuer = 'https://auth.example.test';
  let jwksServer: Server;
  let published: SigningKey[] = [];
  let keyA: SigningKey;
  let t: BillingTestApp;
  let audience: string;

  type SignOptions = { issuer?: string; audience?: string; expiresIn?: string | number | null; subject?: string | null; issuedAt?: number };
  const sign = (key: SigningKey, claims: Record<string, unknown> = {}, options: SignOptions = {}) => {
    const jwt = new SignJWT({ email: 'accountant@demo.test', scope: 'billing:read billing:write', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
      .setIssuer(options.issuer ?? issuer)
      .setAudience(options.audience ?? audience)
      .setIssuedAt(options.issuedAt);
    if (options.subject !== null) jwt.setSubject(options.subject ?? 'user-123');
    if (options.expiresIn !== null) jwt.setExpirationTime(options.expiresIn ?? '5m');
    return jwt.sign(key.privateKey);
  };

  const listTools = (token: string) => callStateless(t.mcpUrl, 'tools/list', {}, { token });

  before(async () => {
    keyA = await newKey('key-a');
    published = [keyA];
    jwksServer = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: published.map((key) => key.jwk) }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    const { port } = jwksServer.address() as { port: number };
    process.env.AUTH_JWT_ISSUER = issuer;
    process.env.AUTH_JWKS_URL = `http://127.0.0.1:${port}/jwks.json`;
    process.env.AUTH_JWKS_COOLDOWN_MS = '0';
    process.env.PUBLIC_URL = PUBLIC_URL;
    t = await startBillingApp();
    audience = `${PUBLIC_URL}/mcp`;
    // The subjects these tests sign for, linked by an operator (npm run identity:link) to the accountant.
    // One subject per user and issuer (external_identities' unique key): three people, three subjects.
    await linkSubjects(t, issuer, 'accountant@demo.test', ['user-123']);
    await linkSubjects(t, issuer, 'viewer@demo.test', ['subject-a']);
    await linkSubjects(t, issuer, 'admin@demo.test', ['subject-b']);
  });
  after(async () => {
    await t.close();
    jwksServer.close();
    delete process.env.PUBLIC_URL;
  });

  it("accepts a valid token and maps it to the user, with the token's scopes", async () => {
    const { status, body } = await listTools(await sign(keyA));
    assert.equal(status, 200);
    const names = body.result.tools.map((tool: { name: string }) => tool.name);
    assert.ok(names.includes('billing_customer_create'));
  });

  it('applies the token scopes: a read-only JWT does not see write tools', async () => {
    const { body } = await listTools(await sign(keyA, { scope: 'billing:read' }));
    assert.ok(!body.result.tools.some((tool: { name: string }) => tool.name === 'billing_customer_create'));
  });

  it('publishes the issuer as the authorization server', async () => {
    const metadata = (await (await fetch(`${t.baseUrl}/.well-known/oauth-protected-resource`)).json()) as {
      authorization_servers: string[];
    };
    assert.deepEqual(metadata.authorization_servers, [issuer]);
  });

  const refusals: Array<[string, () => Promise<string>, RegExp]> = [
    ['an expired token', () => sign(keyA, {}, { expiresIn: Math.floor(Date.now() / 1000) - 60 }), /expired/],
    ['a token for another audience', () => sign(keyA, {}, { audience: 'https://other.example.test/mcp' }), /audience/],
    ['a token from another issuer', () => sign(keyA, {}, { issuer: 'https://evil.example.test' }), /iss claim/],
    [
      'a token with a bad signature',
      async () => {
        const impostor = await newKey('key-a');
        return sign(impostor);
      },
      /signature/,
    ],
    ['a token whose subject nobody linked', () => sign(keyA, {}, { subject: 'stranger' }), /subject is not linked to a user/],
    ['a token that is not a JWT', async () => 'not-a-jwt', /not valid/],
    ['a token without an expiry (exp)', () => sign(keyA, {}, { expiresIn: null }), /no expiry \(exp claim\)/],
    ['a token that lives longer than AUTH_JWT_MAX_AGE (default 24 h)', () => sign(keyA, {}, { expiresIn: '25h' }), /lifetime.*24 h/],
    [
      'a token issued 2 days ago for 2 days (lifetime counted from iat)',
      () => sign(keyA, {}, { issuedAt: Math.floor(Date.now() / 1000) - 2 * 86_400, expiresIn: Math.floor(Date.now() / 1000) + 60 }),
      /lifetime.*24 h/,
    ],
    ['a token without a subject (sub)', () => sign(keyA, {}, { subject: null }), /no subject \(sub claim\)/],
  ];
  for (const [label, make, reason] of refusals) {
    it(`refuses ${label} with 401 and the invalid_token challenge`, async () => {
      const { status, body, headers } = await listTools(await make());
      assert.equal(status, 401);
      assert.match(body.error.message, reason);
      assert.match(headers.get('www-authenticate') ?? '', INVALID_TOKEN_CHALLENGE);
      assert.ok(headers.get('www-authenticate')!.includes(`error_description="${body.error.message}"`));
    });
  }

  it('acts as the linked user whatever the email claim says: an email never names a user', async () => {
    const answer = await callStateless(
      t.mcpUrl,
      'tools/call',
      { name: 'server_status', arguments: {} },
      { token: await sign(keyA, { email: 'admin@demo.test', email_verified: true }) },
    );
    assert.equal(answer.status, 200);
    const row = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
      where: { target: 'server_status', tokenId: `jwt:${issuer}#user-123` },
      orderBy: { occurredAt: 'desc' },
    });
    const accountant = await t.prisma.client.user.findUniqueOrThrow({ where: { email: 'accountant@demo.test' } });
    assert.equal(row.userId, accountant.id);
  });

  it('refuses unlinked subjects that name an existing user by email or as sub, even with email_verified (linking is off)', async () => {
    for (const token of [
      await sign(keyA, { email: 'admin@demo.test' }, { subject: 'attacker-1' }),
      await sign(keyA, { email: 'ADMIN@demo.test', email_verified: true }, { subject: 'attacker-2' }),
      await sign(keyA, { email: undefined }, { subject: 'admin@demo.test' }),
    ]) {
      const { status, body } = await listTools(token);
      assert.equal(status, 401);
      assert.match(body.error.message, /subject is not linked to a user of this server: an administrator links it/);
    }
    assert.equal(
      await t.prisma.client.externalIdentity.count({ where: { subject: { in: ['attacker-1', 'attacker-2', 'admin@demo.test'] } } }),
      0,
    );
  });

  it('accepts a token that lives up to AUTH_JWT_MAX_AGE', async () => {
    assert.equal((await listTools(await sign(keyA, {}, { expiresIn: '23h' }))).status, 200);
  });

  it("keys the caller's token id on iss + sub (+ jti): two subjects never share one identity", async () => {
    const call = async (token: string) => {
      await callStateless(
        t.mcpUrl,
        'tools/call',
        { name: 'billing_customer_summary', arguments: { email: 'nobody@demo.test' } },
        { token },
      );
    };
    await call(await sign(keyA, {}, { subject: 'subject-a' }));
    await call(await sign(keyA, {}, { subject: 'subject-b' }));
    await call(await sign(keyA, { jti: 'token-7' }, { subject: 'subject-a' }));
    const rows = await t.prisma.client.mcpAuditEvent.findMany({
      where: { target: 'billing_customer_summary', tokenId: { startsWith: 'jwt:' } },
      orderBy: { occurredAt: 'asc' },
    });
    assert.deepEqual(
      rows.map((row) => row.tokenId),
      [`jwt:${issuer}#subject-a`, `jwt:${issuer}#subject-b`, `jwt:${issuer}#subject-a#token-7`],
    );
  });

  it('accepts a JWT on the surface its audience names, and refuses it on the other with 401 naming both', async () => {
    const api = `${PUBLIC_URL}/v1`;
    const rest = async (token: string) => fetch(`${t.baseUrl}/v1/customers`, { headers: bearer(token) });
    const forMcp = await sign(keyA);
    const onRest = await rest(forMcp);
    assert.equal(onRest.status, 401);
    assert.match(onRest.headers.get('www-authenticate') ?? '', INVALID_TOKEN_CHALLENGE);
    assert.match(
      ((await onRest.json()) as { message: string }).message,
      new RegExp(`issued for the MCP endpoint, not the REST API: ask the authorization server for one with audience ${api}`),
    );
    const forApi = await sign(keyA, {}, { audience: api });
    assert.equal((await rest(forApi)).status, 200);
    const onMcp = await listTools(forApi);
    assert.equal(onMcp.status, 401);
    assert.match(onMcp.body.error.message, /issued for the REST API, not the MCP endpoint/);
    const forBoth = await new SignJWT({ scope: 'billing:read' })
      .setProtectedHeader({ alg: 'RS256', kid: keyA.kid, typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience([audience, api])
      .setSubject('user-123')
      .setExpirationTime('5m')
      .sign(keyA.privateKey);
    assert.equal((await rest(forBoth)).status, 200);
    assert.equal((await listTools(forBoth)).status, 200);
  });

  it('refuses on REST too, with the invalid_token challenge', async () => {
    const answer = await fetch(`${t.baseUrl}/v1/customers`, { headers: bearer(await sign(keyA, {}, { expiresIn: null })) });
    assert.equal(answer.status, 401);
    assert.match(answer.headers.get('www-authenticate') ?? '', INVALID_TOKEN_CHALLENGE);
  });

  it("refuses a token issued for the resource a forged Host names: the audience is PUBLIC_URL's, fixed at boot", async () => {
    const port = new URL(t.baseUrl).port;
    // A loopback name passes the Host check, so only the audience rule stands in the way.
    const forged = await sign(keyA, {}, { audience: `http://localhost:${port}/mcp` });
    const answer = await rawRequest(`${t.baseUrl}/v1/customers`, {
      method: 'GET',
      headers: { host: `localhost:${port}`, ...bearer(forged) },
    });
    assert.equal(answer.status, 401);
    assert.match(answer.text, /audience/);
    const evil = await sign(keyA, {}, { audience: 'http://evil.example/mcp' });
    const refused = await rawRequest(`${t.baseUrl}/v1/customers`, { method: 'GET', headers: { host: 'evil.example', ...bearer(evil) } });
    assert.equal(refused.status, 403, "a Host that is neither PUBLIC_URL's nor local is refused before authentication");
  });

  it('follows a JWKS key rotation without a restart', async () => {
    const keyB = await newKey('key-b');
    assert.equal((await listTools(await sign(keyB))).status, 401);
    published = [keyA, keyB];
    assert.equal((await listTools(await sign(keyB))).status, 200);
    published = [keyB];
    assert.equal((await listTools(await sign(keyB))).status, 200);
  });

  it('keeps accepting personal tokens beside JWTs', async () => {
    assert.equal((await listTools(await t.token())).status, 200);
  });
});

describe('first-seen JWT subjects, where the operator allows them', () => {
  const issuer = 'https://idp.example.test';
  const settings = [
    'AUTH_JWT_ISSUER',
    'AUTH_JWKS_URL',
    'AUTH_JWKS_COOLDOWN_MS',
    'PUBLIC_URL',
    'AUTH_JWT_LINK_VERIFIED_EMAIL',
    'AUTH_JWT_PROVISION_USERS',
  ];
  const saved = Object.fromEntries(settings.map((key) => [key, process.env[key]]));
  let jwksServer: Server;
  let key: SigningKey;
  let t: BillingTestApp;

  const sign = (subject: string, claims: Record<string, unknown>) =>
    new SignJWT({ scope: 'billing:read', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(`${PUBLIC_URL}/mcp`)
      .setSubject(subject)
      .setExpirationTime('5m')
      .sign(key.privateKey);
  const listTools = async (subject: string, claims: Record<string, unknown>) =>
    callStateless(t.mcpUrl, 'tools/list', {}, { token: await sign(subject, claims) });
  const linkOf = (subject: string) =>
    t.prisma.client.externalIdentity.findUnique({ where: { issuer_subject: { issuer, subject } }, include: { user: true } });

  before(async () => {
    key = await newKey('key-link');
    jwksServer = createServer((_req, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [key.jwk] })));
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    process.env.AUTH_JWT_ISSUER = issuer;
    process.env.AUTH_JWKS_URL = `http://127.0.0.1:${(jwksServer.address() as { port: number }).port}/jwks.json`;
    process.env.AUTH_JWKS_COOLDOWN_MS = '0';
    process.env.PUBLIC_URL = PUBLIC_URL;
    process.env.AUTH_JWT_LINK_VERIFIED_EMAIL = 'true';
    process.env.AUTH_JWT_PROVISION_USERS = 'false';
    t = await startBillingApp();
  });
  after(async () => {
    await t.close();
    jwksServer.close();
    for (const name of settings) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('AUTH_JWT_LINK_VERIFIED_EMAIL: an unverified email links nothing', async () => {
    for (const claims of [
      { email: 'viewer@demo.test' },
      { email: 'viewer@demo.test', email_verified: 'true' },
      { email: 'viewer@demo.test', email_verified: false },
    ]) {
      const { status, body } = await listTools('viewer-sub', claims);
      assert.equal(status, 401);
      assert.match(body.error.message, /not linked/);
    }
    assert.equal(await linkOf('viewer-sub'), null);
  });

  it('AUTH_JWT_LINK_VERIFIED_EMAIL: a verified email links the subject once; later tokens of it act as that user whatever their email', async () => {
    assert.equal((await listTools('viewer-sub', { email: 'Viewer@demo.test', email_verified: true })).status, 200);
    const link = await linkOf('viewer-sub');
    assert.equal(link?.user.email, 'viewer@demo.test');
    assert.equal(link?.linkedBy, 'verified-email');
    assert.equal((await listTools('viewer-sub', { email: 'admin@demo.test', email_verified: true })).status, 200);
    assert.equal((await linkOf('viewer-sub'))?.user.email, 'viewer@demo.test');
  });

  it('AUTH_JWT_LINK_VERIFIED_EMAIL: another subject with the same verified email is refused (the user already has a subject here)', async () => {
    const { status, body } = await listTools('second-viewer-sub', { email: 'viewer@demo.test', email_verified: true });
    assert.equal(status, 401);
    assert.match(body.error.message, /already linked to another subject of this issuer/);
    assert.equal(await linkOf('second-viewer-sub'), null);
  });

  it('AUTH_JWT_PROVISION_USERS: an unknown subject becomes a new user with no workspace, never an existing one', async () => {
    await t.close();
    process.env.AUTH_JWT_LINK_VERIFIED_EMAIL = 'false';
    process.env.AUTH_JWT_PROVISION_USERS = 'true';
    t = await startBillingApp();
    const admin = await t.prisma.client.user.findUniqueOrThrow({ where: { email: 'admin@demo.test' } });
    const { status } = await listTools('newcomer-sub', { email: 'admin@demo.test', email_verified: true, name: 'New Person' });
    assert.equal(status, 200);
    const link = await linkOf('newcomer-sub');
    assert.equal(link?.linkedBy, 'provisioned');
    assert.notEqual(link?.userId, admin.id);
    assert.equal(link?.user.name, 'New Person');
    assert.match(link.user.email, /@provisioned\.invalid$/);
    assert.equal(await t.prisma.client.membership.count({ where: { userId: link.userId } }), 0);
    // The same subject next time: the same user, not another one.
    assert.equal((await listTools('newcomer-sub', {})).status, 200);
    assert.equal(await t.prisma.client.externalIdentity.count({ where: { issuer } }), 1);
  });

  it('reads scopes from AUTH_JWT_SCOPE_CLAIM (Okta: an scp array; Entra ID: an scp string) and publishes AUTH_AUTHORIZATION_SERVERS', async () => {
    await t.close();
    process.env.AUTH_JWT_SCOPE_CLAIM = 'scp';
    process.env.AUTH_AUTHORIZATION_SERVERS = ` ${issuer} `;
    process.env.AUTH_CHALLENGE_SCOPE = '';
    try {
      t = await startBillingApp();
      await linkSubjects(t, issuer, 'accountant@demo.test', ['okta-sub']);
      const writes = async (claims: Record<string, unknown>) => {
        const { status, body } = await listTools('okta-sub', { scope: undefined, ...claims });
        assert.equal(status, 200);
        return body.result.tools.some((tool: { name: string }) => tool.name === 'billing_customer_create');
      };
      assert.equal(await writes({ scp: ['billing:read', 'billing:write'] }), true);
      assert.equal(await writes({ scp: 'billing:read billing:write' }), true);
      assert.equal(await writes({ scope: 'billing:read billing:write' }), false, 'the scope claim is not read when scp is configured');
      const metadata = (await (
        await fetch(`${t.baseUrl}/.well-known/oauth-protected-resource`, { headers: { host: new URL(PUBLIC_URL).host } })
      ).json()) as {
        authorization_servers: string[];
      };
      assert.deepEqual(metadata.authorization_servers, [issuer]);
      const anonymous = await callStateless(t.mcpUrl, 'tools/list');
      assert.equal(anonymous.status, 401);
      assert.doesNotMatch(anonymous.headers.get('www-authenticate') ?? '', /scope=/, 'AUTH_CHALLENGE_SCOPE empty: no baseline scope');
    } finally {
      delete process.env.AUTH_JWT_SCOPE_CLAIM;
      delete process.env.AUTH_AUTHORIZATION_SERVERS;
      delete process.env.AUTH_CHALLENGE_SCOPE;
    }
  });

  it('charges every access token of one subject to one rate-limit bucket (iss + sub, not jti)', async () => {
    await t.close();
    process.env.RATE_LIMIT_TOKEN_PER_MINUTE = '3';
    try {
      t = await startBillingApp();
      await linkSubjects(t, issuer, 'viewer@demo.test', ['limited-sub']);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await listTools('limited-sub', { jti: `token-${i}` })).status);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      // Another subject has a bucket of its own.
      await linkSubjects(t, issuer, 'accountant@demo.test', ['other-sub']);
      assert.equal((await listTools('other-sub', { jti: 'token-9' })).status, 200);
    } finally {
      delete process.env.RATE_LIMIT_TOKEN_PER_MINUTE;
    }
  });

  it('refuses a setting that is neither true nor false at boot', () => {
    assert.throws(
      () => identitySettingsFromEnv({ AUTH_JWT_LINK_VERIFIED_EMAIL: 'maybe' }),
      /AUTH_JWT_LINK_VERIFIED_EMAIL must be true or false/,
    );
  });
});

/** What `npm run identity:link` writes: each subject of the issuer acts as the user of that email. */
async function linkSubjects(t: BillingTestApp, issuer: string, email: string, subjects: string[]): Promise<void> {
  const user = await t.prisma.client.user.findUniqueOrThrow({ where: { email } });
  await t.prisma.client.externalIdentity.createMany({
    data: subjects.map((subject) => ({ issuer, subject, userId: user.id, linkedBy: 'operator' })),
  });
}

describe('JWT mode needs a fixed audience', () => {
  const keys = ['AUTH_JWT_ISSUER', 'AUTH_JWKS_URL', 'AUTH_JWT_AUDIENCE', 'PUBLIC_URL'] as const;
  const saved = Object.fromEntries(keys.map((key) => [key, process.env[key]]));
  after(() => {
    for (const key of keys) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  it('refuses to boot with AUTH_JWT_ISSUER + AUTH_JWKS_URL but neither PUBLIC_URL nor AUTH_JWT_AUDIENCE, naming both', async () => {
    process.env.AUTH_JWT_ISSUER = 'https://auth.example.test';
    process.env.AUTH_JWKS_URL = 'http://127.0.0.1:9/jwks.json';
    delete process.env.AUTH_JWT_AUDIENCE;
    delete process.env.PUBLIC_URL;
    const database = await createTestDatabase();
    try {
      await assert.rejects(
        async () => (await NestFactory.create(billingAppModule(database.url), { logger: false, abortOnError: false })).close(),
        /PUBLIC_URL.*AUTH_JWT_AUDIENCE/s,
      );
    } finally {
      await database.close();
    }
  });
});
