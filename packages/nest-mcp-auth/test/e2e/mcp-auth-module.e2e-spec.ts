import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Controller, Get, Injectable, Module, Post, Req, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Request } from 'express';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { McpModule, McpRestModule, McpTool } from '@nest-mcp/core';
import { callStateless, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';
import {
  McpAuthModule,
  mcpAuthExtensions,
  mcpPrincipalOf,
  PublicRoute,
  type McpAuthOptions,
  type McpPrincipal,
  type McpTokenCheck,
  type McpTokenVerifier,
  type McpUserResolver,
  type McpVerifiedToken,
} from '../../src/index.js';

/**
 * `McpAuthModule` in a small Nest app with the layer, `McpRestModule` and a scoped tool, through
 * the wire only: tokens signed with jose by keys whose JWKS a local HTTP server publishes (two
 * trusted issuers, a third one not trusted), a user resolver, and a token verifier of the app's own.
 */

interface SigningKey {
  kid: string;
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  jwk: JWK;
}

async function newKey(kid: string): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

const ISSUER_A = 'https://a.idp.test';
const ISSUER_B = 'https://b.idp.test/tenant';
const ISSUER_C = 'https://c.idp.test';

@Controller('notes')
class NotesController {
  @Get()
  @McpTool({ name: 'notes_list', description: 'Lists the notes.', scopes: ['notes:read'], annotations: { readOnlyHint: true } })
  list() {
    return [{ id: 1, text: 'first' }];
  }

  @Post('archive')
  @McpTool({ name: 'notes_archive', description: 'Archives every note.', scopes: ['notes:write'] })
  archive() {
    return { archived: 1 };
  }

  /** Who the caller is, as a handler reads it. */
  @Get('me')
  me(@Req() req: Request) {
    return mcpPrincipalOf(req);
  }

  @PublicRoute()
  @Get('health')
  health() {
    return { ok: true };
  }
}

/** The app's users: every subject is one, but `blocked`. */
@Injectable()
class Directory implements McpUserResolver<{ name: string }> {
  async resolve(token: McpVerifiedToken): Promise<{ name: string } | string> {
    return token.subject === 'blocked' ? 'This subject is blocked on this server: ask an administrator' : { name: `user ${token.subject}` };
  }
}

/** The app's own credentials: `app_key_<name>`, issued for the REST API only. */
@Injectable()
class AppKeys implements McpTokenVerifier {
  handles(token: string): boolean {
    return token.startsWith('app_key_');
  }
  async verify(token: string): Promise<McpTokenCheck> {
    const name = token.slice('app_key_'.length);
    if (name !== 'robot') return { ok: false, reason: 'The access token is not valid' };
    const principal: McpPrincipal = { kind: 'app-key', tokenId: 'key-1', callerId: 'key-1', scopes: ['notes:read'], surfaces: ['api'] };
    return { ok: true, principal };
  }
}

function appModule(options: Omit<McpAuthOptions, 'issuers'> & { issuers: McpAuthOptions['issuers'] }): Type<unknown> {
  @Module({
    imports: [
      McpAuthModule.forRoot({ ...options, users: { useClass: Directory }, tokenVerifiers: [{ useClass: AppKeys }] }),
      McpModule.forRoot({ serverInfo: { name: 'auth-app', version: '1.0.0' }, ...mcpAuthExtensions() }),
      // After McpAuthModule: its global guard authenticates before the REST scope guard asks the policy.
      McpRestModule,
    ],
    controllers: [NotesController],
  })
  class AuthApp {}
  return AuthApp;
}

describe('McpAuthModule in an app with the layer (JWKS over HTTP, two issuers)', () => {
  let jwks: Server;
  let t: McpTestApp;
  let keyA: SigningKey;
  let keyB: SigningKey;
  let keyC: SigningKey;
  let metadataUrl: string;

  type SignOptions = { key?: SigningKey; issuer?: string; audience?: string | string[]; subject?: string; exp?: number; scope?: string };
  const sign = (options: SignOptions = {}) => {
    const key = options.key ?? keyA;
    return new SignJWT({ scope: options.scope ?? 'notes:read' })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })
      .setIssuer(options.issuer ?? ISSUER_A)
      .setAudience(options.audience ?? `${t.baseUrl}/mcp`)
      .setSubject(options.subject ?? 'alice')
      .setIssuedAt()
      .setExpirationTime(options.exp ?? '5m')
      .sign(key.privateKey);
  };
  const toolNames = async (token: string) => {
    const { status, body } = await callStateless(t.mcpUrl, 'tools/list', {}, { token });
    assert.equal(status, 200, JSON.stringify(body));
    return body.result.tools.map((tool: { name: string }) => tool.name).sort();
  };
  const rest = (path: string, token?: string, method = 'GET') =>
    fetch(`${t.baseUrl}${path}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });

  before(async () => {
    [keyA, keyB, keyC] = await Promise.all([newKey('a-1'), newKey('b-1'), newKey('c-1')]);
    jwks = createServer((req, res) => {
      const key = { '/a.json': keyA, '/b.json': keyB, '/c.json': keyC }[req.url ?? ''];
      res.statusCode = key ? 200 : 404;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: key ? [key.jwk] : [] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const jwksUrl = `http://127.0.0.1:${(jwks.address() as { port: number }).port}`;
    t = await startMcpTestApp(
      appModule({
        issuers: [
          { issuer: ISSUER_A, jwksUri: `${jwksUrl}/a.json` },
          // Okta-style: scopes in an `scp` array, an audience of its own for each surface.
          { issuer: ISSUER_B, jwksUri: `${jwksUrl}/b.json`, audience: { mcp: 'api://notes-mcp', api: '/v1' }, scopeClaim: 'scp' },
        ],
        challengeScopes: ['notes:read'],
        scopes: ['notes:read', 'notes:write', 'notes:admin'],
        resourceName: 'Notes',
      }),
    );
    metadataUrl = `${t.baseUrl}/.well-known/oauth-protected-resource`;
  });
  after(async () => {
    await t?.close();
    jwks?.close();
  });

  describe('the 401 challenge', () => {
    it('answers an MCP request without a token with 401, the challenge naming the metadata and the first scope', async () => {
      const { status, headers, body } = await callStateless(t.mcpUrl, 'server/discover');
      assert.equal(status, 401);
      assert.equal(headers.get('www-authenticate'), `Bearer scope="notes:read", resource_metadata="${metadataUrl}"`);
      assert.equal(body.error.message, 'Authentication required: send "Authorization: Bearer <token>"');
    });

    it('answers a REST request without a token the same way, with the JSON body', async () => {
      const answer = await rest('/notes');
      assert.equal(answer.status, 401);
      assert.equal(answer.headers.get('www-authenticate'), `Bearer scope="notes:read", resource_metadata="${metadataUrl}"`);
      assert.deepEqual(await answer.json(), {
        statusCode: 401,
        error: 'Unauthorized',
        message: 'Authentication required: send "Authorization: Bearer <token>"',
      });
    });

    it('refuses a token that is not valid with the invalid_token challenge saying why', async () => {
      for (const token of ['not-a-jwt', `${(await sign()).slice(0, -4)}AAAA`]) {
        const { status, headers, body } = await callStateless(t.mcpUrl, 'tools/list', {}, { token });
        assert.equal(status, 401);
        assert.equal(
          headers.get('www-authenticate'),
          `Bearer error="invalid_token", error_description="${body.error.message}", resource_metadata="${metadataUrl}"`,
        );
        assert.match(body.error.message, /^The access token (is not valid|signature is not valid)$/);
      }
    });

    it('lets a @PublicRoute() through without a token', async () => {
      assert.equal((await rest('/notes/health')).status, 200);
    });
  });

  describe('issuers', () => {
    it('accepts a token of either trusted issuer, each checked against its own keys and audiences', async () => {
      assert.deepEqual(await toolNames(await sign()), ['notes_list']);
      const fromB = await new SignJWT({ scp: ['notes:read', 'notes:write'] })
        .setProtectedHeader({ alg: 'ES256', kid: keyB.kid, typ: 'at+jwt' })
        .setIssuer(ISSUER_B)
        .setAudience('api://notes-mcp')
        .setSubject('bob')
        .setExpirationTime('5m')
        .sign(keyB.privateKey);
      assert.deepEqual(await toolNames(fromB), ['notes_archive', 'notes_list']);
    });

    it("refuses a third issuer's token naming the issuers it accepts, and a token signed by another issuer's key", async () => {
      const { status, body } = await callStateless(t.mcpUrl, 'tools/list', {}, { token: await sign({ key: keyC, issuer: ISSUER_C }) });
      assert.equal(status, 401);
      assert.equal(
        body.error.message,
        `The access token's iss claim is not accepted: this server accepts tokens from ${ISSUER_A}, ${ISSUER_B}`,
      );
      const forged = await callStateless(t.mcpUrl, 'tools/list', {}, { token: await sign({ key: keyB, issuer: ISSUER_A }) });
      assert.equal(forged.status, 401);
      assert.equal(forged.body.error.message, 'The access token signature is not valid');
    });
  });

  describe('audiences, one per surface', () => {
    it('accepts the MCP resource on /mcp and the public URL on REST, and refuses each on the other naming the audience to ask for', async () => {
      const forMcp = await sign();
      const forApi = await sign({ audience: t.baseUrl });
      assert.equal((await rest('/notes', forApi)).status, 200);
      const onRest = await rest('/notes', forMcp);
      assert.equal(onRest.status, 401);
      assert.match(onRest.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/);
      assert.equal(
        ((await onRest.json()) as { message: string }).message,
        `The access token was issued for the MCP endpoint, not the REST API: ask the authorization server for one with audience ${t.baseUrl}`,
      );
      const onMcp = await callStateless(t.mcpUrl, 'tools/list', {}, { token: forApi });
      assert.equal(onMcp.status, 401);
      assert.match(onMcp.body.error.message, /issued for the REST API, not the MCP endpoint: .* audience http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      assert.equal((await rest('/notes', await sign({ audience: [`${t.baseUrl}/mcp`, t.baseUrl] }))).status, 200);
    });

    it('refuses a token for another resource', async () => {
      const { status, body } = await callStateless(
        t.mcpUrl,
        'tools/list',
        {},
        { token: await sign({ audience: 'https://other.test/mcp' }) },
      );
      assert.equal(status, 401);
      assert.equal(body.error.message, 'The access token was issued for another resource (audience)');
    });
  });

  describe('expiry and lifetime', () => {
    const now = () => Math.floor(Date.now() / 1000);

    it('refuses a token expired beyond the clock tolerance (5 s), accepts one expired within it', async () => {
      const expired = await callStateless(t.mcpUrl, 'tools/list', {}, { token: await sign({ exp: now() - 30 }) });
      assert.equal(expired.status, 401);
      assert.equal(expired.body.error.message, 'The access token has expired');
      assert.equal((await callStateless(t.mcpUrl, 'tools/list', {}, { token: await sign({ exp: now() - 2 }) })).status, 200);
    });

    it('refuses a token that lives longer than maxTokenAgeMs (24 h)', async () => {
      const { status, body } = await callStateless(t.mcpUrl, 'tools/list', {}, { token: await sign({ exp: now() + 25 * 3600 }) });
      assert.equal(status, 401);
      assert.match(body.error.message, /lifetime is longer than this server accepts \(24 h\)/);
    });
  });

  describe('scopes', () => {
    it('lists only the tools whose scopes the token carries', async () => {
      assert.deepEqual(await toolNames(await sign({ scope: 'notes:read' })), ['notes_list']);
      assert.deepEqual(await toolNames(await sign({ scope: 'notes:read notes:write' })), ['notes_archive', 'notes_list']);
      assert.deepEqual(await toolNames(await sign({ scope: '' })), []);
    });

    it('refuses a call beyond the token scopes with the step-up challenge: what it has plus what is missing', async () => {
      const { status, headers, body } = await callStateless(
        t.mcpUrl,
        'tools/call',
        { name: 'notes_archive', arguments: {} },
        { token: await sign({ scope: 'notes:read' }) },
      );
      assert.equal(status, 403);
      assert.equal(
        headers.get('www-authenticate'),
        `Bearer error="insufficient_scope", scope="notes:read notes:write", resource_metadata="${metadataUrl}"`,
      );
      assert.match(body.error.message, /Insufficient scope: this needs notes:write; get a token with that scope/);
      const allowed = await callStateless(
        t.mcpUrl,
        'tools/call',
        { name: 'notes_archive', arguments: {} },
        { token: await sign({ scope: 'notes:read notes:write' }) },
      );
      assert.equal(allowed.status, 200);
      assert.equal(allowed.body.result.isError, undefined, JSON.stringify(allowed.body));
      assert.match(allowed.body.result.content[0].text, /"archived":1/);
    });

    it("applies the same policy to the tool's REST route (McpRestModule)", async () => {
      // A subject never challenged before (a token issued after its own challenge would get the plain refusal).
      const refused = await rest(
        '/notes/archive',
        await sign({ audience: t.baseUrl, scope: 'notes:read', subject: 'rest-caller' }),
        'POST',
      );
      assert.equal(refused.status, 403);
      assert.equal(
        refused.headers.get('www-authenticate'),
        `Bearer error="insufficient_scope", scope="notes:read notes:write", resource_metadata="${metadataUrl}"`,
      );
      assert.equal(((await refused.json()) as { error: string }).error, 'insufficient_scope');
      assert.equal((await rest('/notes/archive', await sign({ audience: t.baseUrl, scope: 'notes:write' }), 'POST')).status, 201);
    });
  });

  describe('the protected-resource metadata (RFC 9728)', () => {
    it('is served at the root and at the MCP endpoint suffix, without a token', async () => {
      for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
        const answer = await rest(path);
        assert.equal(answer.status, 200);
        assert.deepEqual(await answer.json(), {
          resource: `${t.baseUrl}/mcp`,
          authorization_servers: [ISSUER_A, ISSUER_B],
          scopes_supported: ['notes:admin', 'notes:read', 'notes:write'],
          bearer_methods_supported: ['header'],
          resource_name: 'Notes',
        });
      }
    });
  });

  describe('the principal, the user resolver and token verifiers', () => {
    it("gives handlers the principal: issuer, subject, token id, scopes, surfaces and the resolver's user", async () => {
      const answer = await rest('/notes/me', await sign({ audience: t.baseUrl, subject: 'alice' }));
      const principal = (await answer.json()) as McpPrincipal;
      assert.equal(principal.kind, 'jwt');
      assert.equal(principal.issuer, ISSUER_A);
      assert.equal(principal.subject, 'alice');
      assert.equal(principal.tokenId, `jwt:${ISSUER_A}#alice`);
      assert.equal(principal.callerId, `jwt:${ISSUER_A}#alice`);
      assert.deepEqual(principal.scopes, ['notes:read']);
      assert.deepEqual(principal.surfaces, ['api']);
      assert.deepEqual(principal.user, { name: 'user alice' });
    });

    it("refuses a subject the user resolver refuses, with the resolver's reason", async () => {
      const { status, headers, body } = await callStateless(t.mcpUrl, 'tools/list', {}, { token: await sign({ subject: 'blocked' }) });
      assert.equal(status, 401);
      assert.equal(body.error.message, 'This subject is blocked on this server: ask an administrator');
      assert.match(headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    });

    it("takes the app's own credentials through its verifier, on the surfaces it says (403 elsewhere)", async () => {
      assert.equal((await rest('/notes', 'app_key_robot')).status, 200);
      assert.equal((await rest('/notes', 'app_key_intruder')).status, 401);
      const onMcp = await callStateless(t.mcpUrl, 'tools/list', {}, { token: 'app_key_robot' });
      assert.equal(onMcp.status, 403);
      assert.match(JSON.stringify(onMcp.body), /issued for the REST API only, not the MCP endpoint: use a token issued for mcp/);
    });
  });
});

describe('McpAuthModule refuses to boot on options that could not work', () => {
  it('names the option and the fix', async () => {
    @Module({
      imports: [McpAuthModule.forRoot({ issuers: [] }), McpModule.forRoot({ serverInfo: { name: 'auth-app', version: '1.0.0' } })],
    })
    class NoIssuer {}
    await assert.rejects(
      async () => (await NestFactory.create(NoIssuer, { logger: false, abortOnError: false })).close(),
      /McpAuthModule: issuers is empty and no tokenVerifiers are given/,
    );
  });

  it('forRootAsync takes the options from a factory', async () => {
    @Module({
      imports: [
        McpAuthModule.forRootAsync({
          useFactory: async () => ({ issuers: [{ issuer: ISSUER_A, jwksUri: 'not a url' }] }),
        }),
        McpModule.forRoot({ serverInfo: { name: 'auth-app', version: '1.0.0' } }),
      ],
    })
    class BadJwks {}
    await assert.rejects(
      async () => (await NestFactory.create(BadJwks, { logger: false, abortOnError: false })).close(),
      /McpAuthModule: issuers\[0\]\.jwksUri must be an http\(s\) URL/,
    );
  });
});
