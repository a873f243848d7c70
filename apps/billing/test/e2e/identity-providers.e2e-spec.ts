import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport, type OAuthClientProvider as ClientOAuthProvider } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startBillingAppOn, type BillingTestApp } from '../support/billing-app.js';
import { withEnv } from '../support/apps-on-one-database.js';
import { CLIENT_METADATA_URL, freePort, HostAuth, startTestIdp, type TestIdp } from '../support/oidc-provider.js';

/**
 * Any enterprise identity provider, several at once (docs: packages/nest-mcp-auth/docs/identity-providers.md).
 * Two real OpenID providers (oidc-provider) started here; the first caps every client at the scope
 * it registered (RFC 7591 §2) and grants the write scope only when its policy allows it. Both
 * official MCP clients register dynamically or by a client ID metadata document, sign in, and
 * step up; the billing app runs with its defaults (the 401 names no scope) and both issuers.
 */
const SCOPES = ['billing:read', 'billing:write', 'billing:admin'];
const WRITE = { name: 'billing_customer_create' };

/** One official client, driven as a host drives it: connect (sign in on the 401), call, and finish a step-up it starts. */
interface Host {
  auth: HostAuth;
  call(name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; content: unknown }>;
  /** After a call threw because the client sent the person to the provider: finish that authorization. */
  finishAuthorization(): Promise<void>;
  close(): Promise<void>;
}

async function connect1x(url: string, auth: HostAuth): Promise<Host> {
  const first = new SdkTransport(new URL(url), { authProvider: auth });
  await assert.rejects(new SdkClient({ name: 'host-1x', version: '1.0.0' }).connect(first), /Unauthorized/);
  await first.finishAuth((await auth.callback!).get('code')!);
  const transport = new SdkTransport(new URL(url), { authProvider: auth });
  const client = new SdkClient({ name: 'host-1x', version: '1.0.0' });
  await client.connect(transport);
  return {
    auth,
    call: (name, args) => client.callTool({ name, arguments: args }) as Promise<{ isError?: boolean; content: unknown }>,
    finishAuthorization: async () => transport.finishAuth((await auth.callback!).get('code')!),
    close: () => client.close(),
  };
}

async function connect2x(url: string, auth: HostAuth): Promise<Host> {
  const provider = auth as unknown as ClientOAuthProvider;
  const info = { name: 'host-2x', version: '1.0.0' };
  const pinned = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;
  const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  await assert.rejects(new Client(info, pinned).connect(first), /Unauthorized|401/);
  await first.finishAuth(await auth.callback!);
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  const client = new Client(info, pinned);
  await client.connect(transport);
  return {
    auth,
    call: (name, args) => client.callTool({ name, arguments: args }),
    finishAuthorization: async () => transport.finishAuth(await auth.callback!),
    close: () => client.close(),
  };
}

function errorOf(result: { isError?: boolean; content: unknown }): { code: string; message: string } {
  assert.equal(result.isError, true, JSON.stringify(result));
  const [block] = result.content as Array<{ text: string }>;
  return (JSON.parse(block.text) as { errors: Array<{ code: string; message: string }> }).errors[0];
}

describe('identity providers: step-up with registered clients, several issuers, typ, leeway, key removal', { timeout: 180_000 }, () => {
  let idp: TestIdp;
  let partner: TestIdp;
  let t: BillingTestApp;
  let resource: string;
  let publicUrl: string;
  let workspaceId: string;
  /** The first provider's policy: whether it grants billing:write now. */
  let writeGrantable = false;

  before(async () => {
    const [idpPort, partnerPort, appPort] = await Promise.all([freePort(), freePort(), freePort()]);
    publicUrl = `http://127.0.0.1:${appPort}`;
    resource = `${publicUrl}/mcp`;
    idp = await startTestIdp({
      port: idpPort,
      resource,
      scopes: SCOPES,
      grantable: () => (writeGrantable ? ['billing:read', 'billing:write'] : ['billing:read']),
    });
    partner = await startTestIdp({ port: partnerPort, resource, scopes: SCOPES, grantable: () => ['billing:read'] });
    t = await withEnv(
      {
        PUBLIC_URL: publicUrl,
        AUTH_JWT_ISSUER: idp.issuer,
        AUTH_JWKS_URL: `${idp.issuer}/jwks`,
        // The partner's tokens carry scopes in `scp` (as Okta's do) and are typed JWT (as Entra's are).
        AUTH_JWT_ISSUERS: JSON.stringify([
          { issuer: partner.issuer, jwksUrl: `${partner.issuer}/jwks`, scopeClaim: 'scp', requireAtJwt: false },
        ]),
        AUTH_JWKS_CACHE_MAX_AGE_MS: '1500',
        AUTH_CHALLENGE_SCOPE: undefined,
      },
      () => startBillingAppOn(appPort),
    );
    workspaceId = (await t.prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } })).id;
  });
  after(async () => {
    await t?.close();
    await idp?.close();
    await partner?.close();
  });

  /** A new accountant of the demo workspace whose subject at `issuer` is `subject` (an operator's link). */
  async function accountant(issuer: string, subject: string): Promise<string> {
    const user = await t.prisma.client.user.create({
      data: {
        email: `${subject}@people.test`,
        name: subject,
        memberships: { create: { workspaceId, role: 'accountant' } },
        identities: { create: { issuer, subject, linkedBy: 'operator' } },
      },
    });
    return user.id;
  }

  it('the 401 names no scope, so a client asks for (and registers with) every scope the metadata lists', async () => {
    const response = await fetch(t.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover' }),
    });
    assert.equal(response.status, 401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    assert.doesNotMatch(challenge, /scope=/, challenge);
    const metadata = (await (await fetch(`${publicUrl}/.well-known/oauth-protected-resource`)).json()) as Record<string, string[]>;
    assert.deepEqual(metadata.scopes_supported, [...SCOPES].sort());
    // Exactly the issuers whose tokens are accepted.
    assert.deepEqual(metadata.authorization_servers, [idp.issuer, partner.issuer]);
  });

  for (const [client, connect] of [
    ['1.x', connect1x],
    ['2.x', connect2x],
  ] as const) {
    for (const mode of ['dcr', 'cimd'] as const) {
      it(`${client} client, ${mode === 'dcr' ? 'dynamic registration' : 'client ID metadata document'}: signs in with read, steps up to write once the provider grants it`, async () => {
        writeGrantable = false;
        const subject = `step-${client}-${mode}`;
        await accountant(idp.issuer, subject);
        const host = await connect(t.mcpUrl, new HostAuth(subject, mode));
        try {
          if (mode === 'dcr') {
            const registered = (host.auth.registered as { scope?: string } | undefined)?.scope?.split(' ') ?? [];
            for (const scope of SCOPES) assert.ok(registered.includes(scope), `registered with ${scope}: ${registered.join(' ')}`);
          } else {
            assert.equal(host.auth.registered?.client_id, CLIENT_METADATA_URL);
          }
          const read = await host.call('billing_invoices_search', { limit: 1 });
          assert.notEqual(read.isError, true, JSON.stringify(read));
        } catch (error) {
          await host.close();
          throw error;
        }
        // Read works; the write needs a step-up, which the provider now allows.
        writeGrantable = true;
        const email = `${subject}@customers.test`;
        await assert.rejects(host.call(WRITE.name, { name: subject, email }), /Unauthorized|authoriz/i);
        assert.equal(host.auth.authorizations, 2, 'the step-up sent the person to the provider once');
        await host.finishAuthorization();
        const created = await host.call(WRITE.name, { name: subject, email });
        assert.notEqual(created.isError, true, JSON.stringify(created));
        assert.equal(await t.prisma.client.customer.count({ where: { email } }), 1);
        await host.close();
      });
    }
  }

  it('a step-up the provider does not grant: one more authorization, then a plain refusal the model reads, not the challenge again', async () => {
    writeGrantable = false;
    const subject = 'step-denied';
    await accountant(idp.issuer, subject);
    const host = await connect2x(t.mcpUrl, new HostAuth(subject, 'dcr'));
    try {
      const email = `${subject}@customers.test`;
      await assert.rejects(host.call(WRITE.name, { name: subject, email }), /Unauthorized|authoriz/i);
      await host.finishAuthorization();
      // The new token still lacks billing:write, and so on each retry of the host.
      for (let retry = 0; retry < 4; retry++) {
        const refused = errorOf(await host.call(WRITE.name, { name: subject, email }));
        assert.equal(refused.code, 'scope_not_granted');
        assert.match(refused.message, /billing:write, which the authorization server did not grant .*signing in again will not add it/);
      }
      assert.equal(host.auth.authorizations, 2, 'the sign-in and one step-up: no authorization per retry');
      assert.equal(await t.prisma.client.customer.count({ where: { email } }), 0);
    } finally {
      await host.close();
    }
  });

  /** A tools/call of a read tool with `token`: the HTTP status and the challenge's description when refused. */
  async function readWith(token: string): Promise<{ status: number; why: string }> {
    const response = await fetch(t.mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'billing_invoices_search',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'billing_invoices_search',
          arguments: { limit: 1 },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    const why = /error_description="([^"]*)"/.exec(response.headers.get('www-authenticate') ?? '')?.[1] ?? '';
    await response.text();
    return { status: response.status, why };
  }

  const now = () => Math.floor(Date.now() / 1000);
  const claims = (issuer: string, sub: string, extra: Record<string, unknown> = {}) => ({
    iss: issuer,
    sub,
    aud: resource,
    scope: 'billing:read',
    iat: now(),
    exp: now() + 300,
    ...extra,
  });

  it('two issuers at once: each with its keys and scope claim; an issuer not configured is refused, naming the accepted ones', async () => {
    await accountant(idp.issuer, 'both-idp');
    await accountant(partner.issuer, 'both-partner');
    assert.equal((await readWith(await idp.sign(claims(idp.issuer, 'both-idp')))).status, 200);
    // The partner's token: scopes in `scp` (an array), typed JWT (its issuer does not require at+jwt).
    const partnerToken = await partner.sign(claims(partner.issuer, 'both-partner', { scope: undefined, scp: ['billing:read'] }), {
      typ: 'JWT',
    });
    assert.equal((await readWith(partnerToken)).status, 200);
    // The partner's key does not sign for the first issuer.
    const forged = await partner.sign(claims(idp.issuer, 'both-idp'));
    assert.deepEqual(await readWith(forged), { status: 401, why: 'The access token signature is not valid' });
    const stranger = await idp.sign(claims('https://stranger.example.test', 'both-idp'));
    const refused = await readWith(stranger);
    assert.equal(refused.status, 401);
    assert.match(refused.why, new RegExp(`iss claim is not accepted: this server accepts tokens from ${idp.issuer}, ${partner.issuer}`));
  });

  it('typ: the issuer that requires at+jwt refuses a token typed JWT or untyped, saying how to relax it', async () => {
    await accountant(idp.issuer, 'typ-check');
    for (const typ of ['JWT', '']) {
      const token = await idp.sign(claims(idp.issuer, 'typ-check'), { typ });
      const refused = await readWith(token);
      assert.equal(refused.status, 401, typ);
      assert.match(refused.why, /not typed at\+jwt in its header \(RFC 9068\).*requireAtJwt: false/);
    }
    assert.equal((await readWith(await idp.sign(claims(idp.issuer, 'typ-check')))).status, 200);
  });

  it('clock leeway: 5 s by default on exp and nbf, no more', async () => {
    await accountant(idp.issuer, 'leeway');
    const at = (extra: Record<string, unknown>) => idp.sign(claims(idp.issuer, 'leeway', { iat: now() - 60, ...extra }));
    assert.equal((await readWith(await at({ exp: now() - 3 }))).status, 200, 'expired 3 s ago: within the leeway');
    assert.equal((await readWith(await at({ nbf: now() + 3 }))).status, 200, 'valid in 3 s: within the leeway');
    assert.deepEqual(await readWith(await at({ exp: now() - 10 })), { status: 401, why: 'The access token has expired' });
    assert.equal((await readWith(await at({ nbf: now() + 15 }))).status, 401, 'valid in 15 s: beyond it');
  });

  it('a key the provider removed stops working within the JWKS cache bound (AUTH_JWKS_CACHE_MAX_AGE_MS)', async () => {
    await accountant(partner.issuer, 'rotated');
    const oldKeyToken = await partner.sign(claims(partner.issuer, 'rotated', { scope: undefined, scp: 'billing:read' }));
    assert.equal((await readWith(oldKeyToken)).status, 200);
    // The provider rotates: the same issuer, on the same port, serves only a new key.
    const port = Number(new URL(partner.issuer).port);
    await partner.close();
    partner = await startTestIdp({ port, resource, scopes: SCOPES, grantable: () => ['billing:read'] });
    const removedAt = Date.now();
    let refusedAfter = -1;
    while (Date.now() - removedAt < 10_000) {
      const answer = await readWith(oldKeyToken);
      if (answer.status === 401) {
        assert.equal(answer.why, 'The access token signature is not valid');
        refusedAfter = Date.now() - removedAt;
        break;
      }
      await sleep(100);
    }
    assert.ok(refusedAfter >= 0 && refusedAfter <= 1500 + 1000, `refused ${refusedAfter} ms after the removal (bound 1.5 s)`);
    const newKeyToken = await partner.sign(claims(partner.issuer, 'rotated', { scope: undefined, scp: 'billing:read' }));
    assert.equal((await readWith(newKeyToken)).status, 200, 'the new key works at once');
  });
});
