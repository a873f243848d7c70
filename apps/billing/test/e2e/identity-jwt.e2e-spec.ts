import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { NestFactory } from '@nestjs/core';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { AppModule } from '../../src/app.module.js';
import { callStateless, rawRequest } from '@nest-mcp/core/testing';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';
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
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
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
    ['a token for an unknown user', () => sign(keyA, { email: 'nobody@nowhere.test' }), /no known user/],
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
    const rows = await t.prisma.client.auditEvent.findMany({
      where: { target: 'billing_customer_summary', tokenId: { startsWith: 'jwt:' } },
      orderBy: { occurredAt: 'asc' },
    });
    assert.deepEqual(
      rows.map((row) => row.tokenId),
      [`jwt:${issuer}#subject-a`, `jwt:${issuer}#subject-b`, `jwt:${issuer}#subject-a#token-7`],
    );
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
    process.env.DATABASE_URL = database.url;
    try {
      await assert.rejects(
        async () => (await NestFactory.create(AppModule, { logger: false, abortOnError: false })).close(),
        /PUBLIC_URL.*AUTH_JWT_AUDIENCE/s,
      );
    } finally {
      await database.close();
    }
  });
});
