import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { McpAuthOptions } from './mcp-auth.options.js';
import { resolveMcpAuthOptions } from './resolve-options.js';

const ISSUER = { issuer: 'https://idp.example.test', jwksUri: 'https://idp.example.test/jwks.json' };

describe('resolveMcpAuthOptions', () => {
  it('fills the defaults', () => {
    assert.deepEqual(resolveMcpAuthOptions({ issuers: [ISSUER] }), {
      issuers: [
        {
          issuer: ISSUER.issuer,
          jwksUri: new URL(ISSUER.jwksUri),
          audience: { mcp: undefined, api: undefined },
          scopeClaim: 'scope',
          requireAtJwt: true,
        },
      ],
      authorizationServers: [ISSUER.issuer],
      challengeScopes: [],
      stepUpWindowMs: 600_000,
      maxTokenAgeMs: 86_400_000,
      clockToleranceSeconds: 5,
      jwksCooldownMs: 30_000,
      jwksCacheMaxAgeMs: 600_000,
    });
  });

  it('takes every option; audiences become lists, publicUrl loses its trailing slash, scopes are sorted', () => {
    const resolved = resolveMcpAuthOptions(
      {
        publicUrl: 'https://api.example.test/',
        issuers: [
          { ...ISSUER, audience: { mcp: 'https://api.example.test/mcp', api: ['/v1', 'https://legacy.example.test'] }, scopeClaim: 'scp' },
          { issuer: 'https://other.example.test', jwksUri: 'http://127.0.0.1:9/keys', requireAtJwt: false },
        ],
        authorizationServers: ['https://other.example.test'],
        challengeScopes: ['read', 'read'],
        scopes: ['write', 'read'],
        maxTokenAgeMs: 3_600_000,
        clockToleranceSeconds: 0,
        jwksCooldownMs: 0,
        jwksCacheMaxAgeMs: 60_000,
        apiKeyHeader: 'X-API-Key',
        resourceName: 'Example',
      },
      0,
    );
    assert.equal(resolved.publicUrl, 'https://api.example.test');
    assert.deepEqual(resolved.issuers[0].audience, { mcp: ['https://api.example.test/mcp'], api: ['/v1', 'https://legacy.example.test'] });
    assert.equal(resolved.issuers[0].scopeClaim, 'scp');
    assert.equal(resolved.issuers[1].requireAtJwt, false);
    assert.deepEqual(resolved.authorizationServers, ['https://other.example.test'], 'an issuer left out is still accepted, not advertised');
    assert.deepEqual(resolved.challengeScopes, ['read']);
    assert.deepEqual(resolved.scopes, ['read', 'write']);
    assert.equal(resolved.clockToleranceSeconds, 0);
    assert.equal(resolved.apiKeyHeader, 'X-API-Key');
  });

  it('accepts no issuer when token verifiers check the tokens', () => {
    assert.deepEqual(resolveMcpAuthOptions({ issuers: [] }, 1).authorizationServers, []);
  });

  it('stops the boot on a wrong value, naming the option and the fix', () => {
    for (const [options, message] of [
      [{}, /issuers must be a list of \{ issuer, jwksUri \}/],
      [{ issuers: [] }, /issuers is empty and no tokenVerifiers are given.*add an issuer or a token verifier/],
      [{ issuers: [{ jwksUri: ISSUER.jwksUri }] }, /issuers\[0\]\.issuer must be the issuer identifier/],
      [{ issuers: [ISSUER, ISSUER] }, /issuers\[1\]\.issuer "https:\/\/idp\.example\.test" is listed twice/],
      [{ issuers: [{ ...ISSUER, jwksUri: 'idp/jwks' }] }, /issuers\[0\]\.jwksUri must be an http\(s\) URL.*jwks_uri/],
      [{ issuers: [{ ...ISSUER, audience: { mcp: [] } }] }, /issuers\[0\]\.audience\.mcp must be a non-empty string/],
      [{ issuers: [{ ...ISSUER, scopeClaim: ' ' }] }, /issuers\[0\]\.scopeClaim must name a claim/],
      [{ issuers: [ISSUER], publicUrl: 'api.example.test' }, /publicUrl must be an http\(s\) URL.*base URL clients reach/],
      [{ issuers: [ISSUER], publicUrl: 'https://api.example.test/?a=1' }, /publicUrl .* must not carry a query/],
      [{ issuers: [ISSUER], authorizationServers: ['login'] }, /authorizationServers\[0\] must be an http\(s\) URL/],
      [
        { issuers: [ISSUER], authorizationServers: ['https://idp.example.test/v1'] },
        /authorizationServers\[0\] "https:\/\/idp\.example\.test\/v1" is not an accepted issuer \(https:\/\/idp\.example\.test\).*RFC 8414.*proxy path/,
      ],
      [
        { issuers: [ISSUER], authorizationServers: ['https://idp.example.test/'] },
        /"https:\/\/idp\.example\.test\/" is not an accepted issuer.*spell it exactly as its tokens' iss, "https:\/\/idp\.example\.test"/,
      ],
      [{ issuers: [{ ...ISSUER, requireAtJwt: 'no' }] }, /issuers\[0\]\.requireAtJwt must be true or false, got "no"/],
      [{ issuers: [ISSUER], stepUpWindowMs: -1 }, /stepUpWindowMs must be a whole number of milliseconds ≥ 0/],
      [{ issuers: [ISSUER], challengeScopes: ['a b'] }, /challengeScopes has "a b", not an OAuth scope token/],
      [{ issuers: [ISSUER], scopes: 'read' }, /scopes must be an array of scope names/],
      [{ issuers: [ISSUER], maxTokenAgeMs: 0 }, /maxTokenAgeMs must be a whole number of milliseconds ≥ 1, got 0/],
      [{ issuers: [ISSUER], clockToleranceSeconds: -1 }, /clockToleranceSeconds must be a whole number of seconds ≥ 0, got -1/],
      [{ issuers: [ISSUER], jwksCooldownMs: 1.5 }, /jwksCooldownMs must be a whole number/],
      [{ issuers: [ISSUER], jwksCacheMaxAgeMs: 0 }, /jwksCacheMaxAgeMs must be a whole number/],
      [{ issuers: [ISSUER], apiKeyHeader: 'X API Key' }, /apiKeyHeader must be an HTTP header name/],
      [{ issuers: [ISSUER], apiKeyHeader: 'authorization' }, /Authorization is always read/],
    ] as Array<[unknown, RegExp]>) {
      assert.throws(
        () => resolveMcpAuthOptions(options as McpAuthOptions),
        (error: Error) => error.message.startsWith('McpAuthModule: ') && message.test(error.message),
        JSON.stringify(options),
      );
    }
  });
});
