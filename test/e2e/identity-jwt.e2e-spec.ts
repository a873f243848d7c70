import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { post, statelessRequest } from '../support/mcp-http.js';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';

interface SigningKey {
  kid: string;
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  jwk: JWK;
}

async function newKey(kid: string): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

describe('JWT access tokens from an external authorization server (JWKS)', () => {
  const issuer = 'https://auth.example.test';
  let jwksServer: Server;
  let published: SigningKey[] = [];
  let keyA: SigningKey;
  let t: BillingTestApp;
  let audience: string;

  const sign = (key: SigningKey, claims: Record<string, unknown> = {}, options: { issuer?: string; audience?: string; expiresIn?: string | number } = {}) =>
    new SignJWT({ email: 'accountant@demo.test', scope: 'billing:read billing:write', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .setIssuer(options.issuer ?? issuer)
      .setAudience(options.audience ?? audience)
      .setSubject('user-123')
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '5m')
      .sign(key.privateKey);

  const listTools = async (token: string) => {
    const request = statelessRequest('tools/list');
    return post(t.mcpUrl, request.body, { ...request.headers, ...bearer(token) });
  };

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
    t = await startBillingApp();
    audience = `${t.baseUrl}/mcp`;
  });
  after(async () => {
    await t.close();
    jwksServer.close();
  });

  it('accepts a valid token and maps it to the user, with the token\'s scopes', async () => {
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
    const metadata = (await (await fetch(`${t.baseUrl}/.well-known/oauth-protected-resource`)).json()) as { authorization_servers: string[] };
    assert.deepEqual(metadata.authorization_servers, [issuer]);
  });

  const refusals: Array<[string, () => Promise<string>, RegExp]> = [
    ['an expired token', () => sign(keyA, {}, { expiresIn: Math.floor(Date.now() / 1000) - 60 }), /expired/],
    ['a token for another audience', () => sign(keyA, {}, { audience: 'https://other.example.test/mcp' }), /audience/],
    ['a token from another issuer', () => sign(keyA, {}, { issuer: 'https://evil.example.test' }), /iss claim/],
    ['a token with a bad signature', async () => {
      const impostor = await newKey('key-a');
      return sign(impostor);
    }, /signature/],
    ['a token for an unknown user', () => sign(keyA, { email: 'nobody@nowhere.test' }), /no known user/],
    ['a token that is not a JWT', async () => 'not-a-jwt', /not valid/],
  ];
  for (const [label, make, reason] of refusals) {
    it(`refuses ${label} with 401`, async () => {
      const { status, body, headers } = await listTools(await make());
      assert.equal(status, 401);
      assert.match(body.error.message, reason);
      assert.match(headers.get('www-authenticate') ?? '', /resource_metadata=/);
    });
  }

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
