import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport, type OAuthClientProvider as ClientOAuthProvider } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { startBillingAppOn, type BillingTestApp } from '../support/billing-app.js';
import { freePort, HostAuth, REDIRECT_URL } from '../support/oidc-provider.js';

/**
 * The billing app as the resource server of a real, certified OpenID provider (panva's
 * oidc-provider, started by this test): both official MCP clients discover it from the 401,
 * run the authorization-code flow with PKCE and a resource indicator, get a JWT access token for
 * `<PUBLIC_URL>/mcp`, and call tools as the user the subject is linked to (docs/identity.md,
 * "A real identity provider, end to end").
 */
const CLIENT_ID = 'billing-mcp-test-client';
const SCOPES = 'billing:read billing:write';

describe('a real OpenID provider (oidc-provider) and both official clients', { timeout: 120_000 }, () => {
  let idp: Server;
  let issuer: string;
  let t: BillingTestApp;
  const saved = { ...process.env };

  before(async () => {
    const [idpPort, appPort] = await Promise.all([freePort(), freePort()]);
    issuer = `http://127.0.0.1:${idpPort}`;
    const publicUrl = `http://127.0.0.1:${appPort}`;
    const resource = `${publicUrl}/mcp`;
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          token_endpoint_auth_method: 'none',
          redirect_uris: [REDIRECT_URL],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'idp-key', alg: 'RS256', use: 'sig' }] },
      findAccount: (_ctx: unknown, sub: string) => ({
        accountId: sub,
        claims: () => ({ sub, email: `${sub}@idp.test`, email_verified: true }),
      }),
      scopes: ['openid', 'offline_access', ...SCOPES.split(' ')],
      pkce: { required: () => true },
      features: {
        devInteractions: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resource,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, indicator: string) => {
            assert.equal(indicator, resource, 'the client asks for this server as its resource');
            return { scope: SCOPES, audience: indicator, accessTokenFormat: 'jwt', accessTokenTTL: 600, jwt: { sign: { alg: 'RS256' } } };
          },
        },
      },
    });
    const handle = provider.callback();
    idp = createHttpServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => idp.listen(idpPort, '127.0.0.1', resolve));

    Object.assign(process.env, {
      PUBLIC_URL: publicUrl,
      AUTH_JWT_ISSUER: issuer,
      AUTH_JWKS_URL: `${issuer}/jwks`,
      AUTH_CHALLENGE_SCOPE: SCOPES,
    });
    t = await startBillingAppOn(appPort);
    // The operator links the provider's subject to a user (npm run identity:link).
    const accountant = await t.prisma.client.user.findUniqueOrThrow({ where: { email: 'accountant@demo.test' } });
    const viewer = await t.prisma.client.user.findUniqueOrThrow({ where: { email: 'viewer@demo.test' } });
    await t.prisma.client.externalIdentity.createMany({
      data: [
        { issuer, subject: 'ana', userId: accountant.id, linkedBy: 'operator' },
        { issuer, subject: 'vic', userId: viewer.id, linkedBy: 'operator' },
      ],
    });
  });
  after(async () => {
    await t?.close();
    idp?.close();
    for (const name of ['PUBLIC_URL', 'AUTH_JWT_ISSUER', 'AUTH_JWKS_URL', 'AUTH_CHALLENGE_SCOPE']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('@modelcontextprotocol/sdk 1.x: discovery from the 401, code + PKCE + resource, then tools as the linked user', async () => {
    const auth = new HostAuth('ana', { clientId: CLIENT_ID });
    const transport = new SdkTransport(new URL(t.mcpUrl), { authProvider: auth });
    const client = new SdkClient({ name: 'oidc-1x', version: '1.0.0' });
    await assert.rejects(client.connect(transport), /Unauthorized/);
    await transport.finishAuth((await auth.callback!).get('code')!);
    const connected = new SdkClient({ name: 'oidc-1x', version: '1.0.0' });
    await connected.connect(new SdkTransport(new URL(t.mcpUrl), { authProvider: auth }));
    try {
      const { tools } = await connected.listTools();
      assert.ok(
        tools.some((tool) => tool.name === 'billing_customer_create'),
        'write tools: the token has billing:write, the accountant role allows it',
      );
      const result = await connected.callTool({ name: 'server_status', arguments: {} });
      assert.notEqual(result.isError, true);
      const accountant = await t.prisma.client.user.findUniqueOrThrow({ where: { email: 'accountant@demo.test' } });
      const row = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
        where: { target: 'server_status', tokenId: { startsWith: `jwt:${issuer}#ana` } },
      });
      assert.equal(row.userId, accountant.id);
    } finally {
      await connected.close();
    }
  });

  it('@modelcontextprotocol/client 2.x (2026-07-28): the same flow against the same provider', async () => {
    const auth = new HostAuth('ana', { clientId: CLIENT_ID });
    const make = () => new StreamableHTTPClientTransport(new URL(t.mcpUrl), { authProvider: auth as unknown as ClientOAuthProvider });
    const first = make();
    const client = new Client({ name: 'oidc-2x', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await assert.rejects(client.connect(first), /Unauthorized|401/);
    // RFC 9207: the 2.x client checks the callback's iss against the issuer it discovered.
    await first.finishAuth(await auth.callback!);
    const connected = new Client({ name: 'oidc-2x', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await connected.connect(make());
    try {
      const { tools } = await connected.listTools();
      assert.ok(tools.some((tool) => tool.name === 'billing_customer_create'));
    } finally {
      await connected.close();
    }
  });

  it('a viewer whose token carries billing:write is refused by role with a tool error, no challenge: the client does not re-authorise for nothing', async () => {
    const auth = new HostAuth('vic', { clientId: CLIENT_ID });
    const make = () => new StreamableHTTPClientTransport(new URL(t.mcpUrl), { authProvider: auth as unknown as ClientOAuthProvider });
    const first = make();
    await assert.rejects(
      new Client({ name: 'oidc-viewer', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }).connect(first),
    );
    await first.finishAuth(await auth.callback!);
    const connected = new Client({ name: 'oidc-viewer', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await connected.connect(make());
    try {
      // docs/protocol.md, "Refusals": the 2.x client returns the refusal as a result the model reads.
      const result = await connected.callTool({ name: 'billing_customer_create', arguments: { name: 'Nope', email: 'nope@demo.test' } });
      assert.equal(result.isError, true, JSON.stringify(result));
      const [block] = result.content as Array<{ type: string; text?: string }>;
      assert.equal(block.type, 'text');
      const envelope = JSON.parse(block.text!) as { ok: boolean; errors: unknown[] };
      assert.equal(envelope.ok, false);
      assert.deepEqual(envelope.errors, [
        {
          code: 'forbidden_by_role',
          message: 'Your role does not allow billing:write in this workspace; ask a workspace admin',
          retryable: false,
        },
      ]);
      assert.deepEqual(result.structuredContent, envelope);
      assert.equal(auth.authorizations, 1, 'no second trip to the provider: a new token would not help');
      assert.equal(await t.prisma.client.customer.count({ where: { email: 'nope@demo.test' } }), 0);
      const audit = await t.prisma.client.mcpAuditEvent.findFirstOrThrow({
        where: { target: 'billing_customer_create', tokenId: { startsWith: `jwt:${issuer}#vic` } },
        orderBy: { occurredAt: 'desc' },
      });
      assert.equal(audit.outcome, 'denied');
    } finally {
      await connected.close();
    }
  });
});
