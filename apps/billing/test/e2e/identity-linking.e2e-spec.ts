import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { callStateless, envelopeOf } from '@nest-mcp/core/testing';
import { bearer, startBillingApp, type BillingTestApp } from '../support/billing-app.js';

/**
 * First-seen JWT subjects (docs/identity.md, "JWT identity"): one subject per user and issuer,
 * whatever the concurrency (linking by verified email), and a provisioned user with no workspace
 * told so, not refused "by role".
 */

interface SigningKey {
  kid: string;
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  jwk: JWK;
}

const PUBLIC_URL = 'https://billing.example.test';
const ISSUER = 'https://idp-linking.example.test';
const SETTINGS = [
  'AUTH_JWT_ISSUER',
  'AUTH_JWKS_URL',
  'AUTH_JWKS_COOLDOWN_MS',
  'PUBLIC_URL',
  'AUTH_JWT_LINK_VERIFIED_EMAIL',
  'AUTH_JWT_PROVISION_USERS',
] as const;

const NO_WORKSPACE = {
  code: 'no_workspace',
  message: 'You are not a member of any workspace of this server yet: ask a workspace admin to add you',
};

describe('first-seen JWT subjects: one subject per user and issuer, and users with no workspace', () => {
  const saved = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));
  let jwksServer: Server;
  let key: SigningKey;
  let t: BillingTestApp | undefined;

  const sign = (subject: string, claims: Record<string, unknown>, audience = `${PUBLIC_URL}/mcp`) =>
    new SignJWT({ scope: 'billing:read billing:write', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setSubject(subject)
      .setExpirationTime('5m')
      .sign(key.privateKey);

  const boot = async (settings: { linkVerifiedEmail: boolean; provisionUsers: boolean }) => {
    await t?.close();
    t = undefined;
    process.env.AUTH_JWT_LINK_VERIFIED_EMAIL = String(settings.linkVerifiedEmail);
    process.env.AUTH_JWT_PROVISION_USERS = String(settings.provisionUsers);
    t = await startBillingApp();
    return t;
  };

  before(async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    key = { kid: 'key-linking', privateKey, jwk: { ...(await exportJWK(publicKey)), kid: 'key-linking', alg: 'RS256', use: 'sig' } };
    jwksServer = createServer((_req, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [key.jwk] })));
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    process.env.AUTH_JWT_ISSUER = ISSUER;
    process.env.AUTH_JWKS_URL = `http://127.0.0.1:${(jwksServer.address() as { port: number }).port}/jwks.json`;
    process.env.AUTH_JWKS_COOLDOWN_MS = '0';
    process.env.PUBLIC_URL = PUBLIC_URL;
  });
  after(async () => {
    await t?.close();
    jwksServer?.close();
    for (const name of SETTINGS) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('AUTH_JWT_LINK_VERIFIED_EMAIL: of 10 new subjects signing in at once with one verified email, exactly one is linked; the others are refused', async () => {
    const app = await boot({ linkVerifiedEmail: true, provisionUsers: false });
    // Several rounds, each with a user of its own: one round alone does not always interleave the requests.
    for (let round = 0; round < 5; round++) {
      const email = `race-${round}@demo.test`;
      const user = await app.prisma.client.user.create({ data: { email, name: `Race ${round}` } });
      const subjects = Array.from({ length: 10 }, (_, i) => `race-${round}-sub-${i}`);
      const tokens = await Promise.all(subjects.map((subject) => sign(subject, { email, email_verified: true })));
      const answers = await Promise.all(
        tokens.map((token) => callStateless(app.mcpUrl, 'tools/call', { name: 'server_status', arguments: {} }, { token })),
      );

      const links = await app.prisma.client.externalIdentity.findMany({ where: { issuer: ISSUER, userId: user.id } });
      assert.equal(links.length, 1, `round ${round}: one subject linked to the user, not ${links.length}`);
      const winners = subjects.filter((_, i) => answers[i].status === 200);
      assert.deepEqual(winners, [links[0].subject], `round ${round}: only the linked subject's request succeeds`);
      const audited = await app.prisma.client.mcpAuditEvent.findFirstOrThrow({
        where: { target: 'server_status', tokenId: `jwt:${ISSUER}#${links[0].subject}` },
      });
      assert.equal(audited.userId, user.id, `round ${round}: the winner acted as the user of the email`);
      for (const [i, answer] of answers.entries()) {
        if (subjects[i] === links[0].subject) continue;
        assert.equal(answer.status, 401, `round ${round}, ${subjects[i]}: ${JSON.stringify(answer.body)}`);
        assert.match(
          answer.body.error.message,
          /its email belongs to a user already linked to another subject of this issuer: an administrator decides \(npm run identity:link\)/,
        );
      }
      // No loser was linked to anyone, nor provisioned.
      assert.equal(await app.prisma.client.externalIdentity.count({ where: { issuer: ISSUER, subject: { in: subjects } } }), 1);

      // A later attempt of a loser is refused the same way, and the winner keeps acting as the user.
      const later = await callStateless(app.mcpUrl, 'tools/list', {}, { token: tokens[subjects.indexOf(winners[0]) === 0 ? 1 : 0] });
      assert.equal(later.status, 401);
      assert.match(later.body.error.message, /already linked to another subject of this issuer/);
      const again = await callStateless(app.mcpUrl, 'tools/list', {}, { token: tokens[subjects.indexOf(winners[0])] });
      assert.equal(again.status, 200);
    }
  });

  it('the database refuses a second subject for one user and issuer, whoever writes it', async () => {
    const app = t ?? (await boot({ linkVerifiedEmail: true, provisionUsers: false }));
    const viewer = await app.prisma.client.user.findUniqueOrThrow({ where: { email: 'viewer@demo.test' } });
    await app.prisma.client.externalIdentity.create({
      data: { issuer: ISSUER, subject: 'db-one', userId: viewer.id, linkedBy: 'operator' },
    });
    await assert.rejects(
      app.prisma.client.externalIdentity.create({ data: { issuer: ISSUER, subject: 'db-two', userId: viewer.id, linkedBy: 'operator' } }),
      (error: { code?: string }) => error.code === 'P2002',
    );
    // Another issuer is another identity: the same user may have a subject there.
    await app.prisma.client.externalIdentity.create({
      data: { issuer: 'https://other-idp.example.test', subject: 'db-one', userId: viewer.id, linkedBy: 'operator' },
    });
  });

  it('AUTH_JWT_PROVISION_USERS: a provisioned user with no workspace is told so, with its own code, over MCP and REST', async () => {
    const app = await boot({ linkVerifiedEmail: false, provisionUsers: true });
    const subject = 'newcomer-sub';
    const call = await callStateless(
      app.mcpUrl,
      'tools/call',
      { name: 'billing_customer_summary', arguments: { email: 'nobody@demo.test' } },
      { token: await sign(subject, { name: 'New Person' }) },
    );
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.body.result?.isError, true, JSON.stringify(call.body));
    assert.equal(call.headers.get('www-authenticate'), null, 'no scope challenge: a new token would not help');
    const envelope = envelopeOf(call.body);
    assert.equal(envelope.ok, false);
    assert.deepEqual(envelope.errors, [{ ...NO_WORKSPACE, retryable: false }]);

    const link = await app.prisma.client.externalIdentity.findUniqueOrThrow({ where: { issuer_subject: { issuer: ISSUER, subject } } });
    assert.equal(link.linkedBy, 'provisioned');
    assert.equal(await app.prisma.client.membership.count({ where: { userId: link.userId } }), 0);

    const apiToken = await sign(subject, {}, `${PUBLIC_URL}/v1`);
    for (const headers of [{}, { 'x-workspace-id': 'demo' }]) {
      const response = await fetch(`${app.baseUrl}/v1/customers`, { headers: { ...bearer(apiToken), ...headers } });
      assert.equal(response.status, 403);
      assert.equal(response.headers.get('www-authenticate'), null);
      assert.deepEqual(await response.json(), { statusCode: 403, error: NO_WORKSPACE.code, ...NO_WORKSPACE });
    }

    // Once a member, the usual answers: the read passes, and what the role does not allow is refused by role.
    const demo = await app.prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } });
    await app.prisma.client.membership.create({ data: { userId: link.userId, workspaceId: demo.id, role: 'viewer' } });
    assert.equal((await fetch(`${app.baseUrl}/v1/customers`, { headers: bearer(apiToken) })).status, 200);
    const write = await fetch(`${app.baseUrl}/v1/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(apiToken) },
      body: JSON.stringify({ name: 'Z', email: 'z@z.test' }),
    });
    assert.equal(write.status, 403);
    assert.equal(((await write.json()) as { code: string }).code, 'forbidden_by_role');
  });
});
