import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_JWT_MAX_AGE_MS, identityConfig, identitySettingsFromEnv } from './identity.config.js';

const JWT = { AUTH_JWT_ISSUER: 'https://auth.example.test', AUTH_JWKS_URL: 'https://auth.example.test/jwks.json' };

describe('identity settings, fixed at boot', () => {
  it('takes PUBLIC_URL without its trailing slash, and never asks for the bound address then', () => {
    const config = identityConfig(identitySettingsFromEnv({ PUBLIC_URL: 'https://billing.example.test/' }), () => assert.fail('not asked'));
    assert.equal(config.publicUrl, 'https://billing.example.test');
    assert.equal(config.configuredPublicUrl, 'https://billing.example.test');
  });

  it('without PUBLIC_URL, derives the public URL from the bound address once', () => {
    let asked = 0;
    const config = identityConfig(identitySettingsFromEnv({}), () => `http://127.0.0.1:${++asked}`);
    assert.equal(config.publicUrl, 'http://127.0.0.1:1');
    assert.equal(config.publicUrl, 'http://127.0.0.1:1');
    assert.equal(config.configuredPublicUrl, undefined);
  });

  it('refuses JWT mode without PUBLIC_URL or AUTH_JWT_AUDIENCE, and accepts either', () => {
    assert.throws(() => identitySettingsFromEnv(JWT), /set PUBLIC_URL .* or its audience \(AUTH_JWT_AUDIENCE/);
    assert.equal(
      identitySettingsFromEnv({ ...JWT, AUTH_JWT_AUDIENCE: 'https://billing.example.test/mcp' }).issuers[0].audience,
      'https://billing.example.test/mcp',
    );
    assert.equal(identitySettingsFromEnv({ ...JWT, PUBLIC_URL: 'https://billing.example.test' }).issuers[0].audience, undefined);
  });

  it('one issuer from AUTH_JWT_*: at+jwt required, no linking, by default; the pair of variables goes together', () => {
    const [issuer] = identitySettingsFromEnv({ ...JWT, PUBLIC_URL: 'https://billing.example.test' }).issuers;
    assert.deepEqual(issuer, {
      issuer: JWT.AUTH_JWT_ISSUER,
      jwksUrl: JWT.AUTH_JWKS_URL,
      audience: undefined,
      apiAudience: undefined,
      scopeClaim: 'scope',
      requireAtJwt: true,
      linkVerifiedEmail: false,
      provisionUsers: false,
    });
    const relaxed = identitySettingsFromEnv({ ...JWT, PUBLIC_URL: 'https://b.test', AUTH_JWT_REQUIRE_AT_JWT: 'false' });
    assert.equal(relaxed.issuers[0].requireAtJwt, false);
    assert.throws(() => identitySettingsFromEnv({ AUTH_JWT_ISSUER: JWT.AUTH_JWT_ISSUER }), /go together: AUTH_JWKS_URL is missing/);
    assert.throws(
      () => identitySettingsFromEnv({ ...JWT, PUBLIC_URL: 'https://b.test', AUTH_JWT_REQUIRE_AT_JWT: 'nope' }),
      /AUTH_JWT_REQUIRE_AT_JWT must be true or false/,
    );
  });

  it('several issuers from AUTH_JWT_ISSUERS (JSON), each with its own settings, beside the AUTH_JWT_* one', () => {
    const settings = identitySettingsFromEnv({
      ...JWT,
      PUBLIC_URL: 'https://billing.example.test',
      AUTH_JWT_ISSUERS: JSON.stringify([
        { issuer: 'https://partner.example.test/', jwksUrl: 'https://partner.example.test/keys', scopeClaim: 'scp', requireAtJwt: false },
        {
          issuer: 'https://staff.example.test',
          jwksUrl: 'https://staff.example.test/keys',
          linkVerifiedEmail: true,
          audience: 'api://billing',
        },
      ]),
    });
    assert.deepEqual(
      settings.issuers.map((i) => [i.issuer, i.scopeClaim, i.requireAtJwt, i.linkVerifiedEmail, i.audience]),
      [
        [JWT.AUTH_JWT_ISSUER, 'scope', true, false, undefined],
        ['https://partner.example.test/', 'scp', false, false, undefined],
        ['https://staff.example.test', 'scope', true, true, 'api://billing'],
      ],
    );
    for (const [value, message] of [
      ['{', /AUTH_JWT_ISSUERS is not JSON: give a JSON array such as/],
      ['{}', /AUTH_JWT_ISSUERS is not an array/],
      ['[{"issuer":"https://x.test"}]', /AUTH_JWT_ISSUERS \[0\]\.jwksUrl must be a non-empty string/],
      [
        '[{"issuer":"https://x.test","jwksUrl":"https://x.test/k","scope_claim":"scp"}]',
        /\[0\] has "scope_claim", which is not one of issuer, jwksUrl/,
      ],
      ['[{"issuer":"https://x.test","jwksUrl":"https://x.test/k","requireAtJwt":"false"}]', /\[0\]\.requireAtJwt must be true or false/],
      [JSON.stringify([{ issuer: JWT.AUTH_JWT_ISSUER, jwksUrl: JWT.AUTH_JWKS_URL }]), /configured twice/],
    ] as Array<[string, RegExp]>) {
      assert.throws(() => identitySettingsFromEnv({ ...JWT, PUBLIC_URL: 'https://b.test', AUTH_JWT_ISSUERS: value }), message);
    }
  });

  it('challenges with no scope by default (clients then ask for every scope), with AUTH_CHALLENGE_SCOPE when set', () => {
    assert.deepEqual(identitySettingsFromEnv({}).challengeScopes, []);
    assert.deepEqual(identitySettingsFromEnv({ AUTH_CHALLENGE_SCOPE: 'billing:read  billing:write' }).challengeScopes, [
      'billing:read',
      'billing:write',
    ]);
  });

  it('reads the clock tolerance (5 s) and the JWKS cache bound (10 min), whole numbers', () => {
    assert.equal(identitySettingsFromEnv({}).clockToleranceSeconds, 5);
    assert.equal(identitySettingsFromEnv({ AUTH_JWT_CLOCK_TOLERANCE: '0' }).clockToleranceSeconds, 0);
    assert.equal(identitySettingsFromEnv({}).jwksCacheMaxAgeMs, 600_000);
    assert.equal(identitySettingsFromEnv({ AUTH_JWKS_CACHE_MAX_AGE_MS: '2000' }).jwksCacheMaxAgeMs, 2000);
    assert.throws(
      () => identitySettingsFromEnv({ AUTH_JWT_CLOCK_TOLERANCE: '5s' }),
      /AUTH_JWT_CLOCK_TOLERANCE must be an integer ≥ 0 \(seconds\)/,
    );
    assert.throws(() => identitySettingsFromEnv({ AUTH_JWKS_CACHE_MAX_AGE_MS: '0' }), /AUTH_JWKS_CACHE_MAX_AGE_MS must be an integer ≥ 1/);
  });

  it('refuses a PUBLIC_URL that is not an http(s) base URL', () => {
    assert.throws(() => identitySettingsFromEnv({ PUBLIC_URL: 'billing.example.test' }), /not a URL/);
    assert.throws(() => identitySettingsFromEnv({ PUBLIC_URL: 'ftp://billing.example.test' }), /http\(s\)/);
    assert.throws(() => identitySettingsFromEnv({ PUBLIC_URL: 'https://billing.example.test/?x=1' }), /query/);
  });

  it('reads AUTH_JWT_MAX_AGE as a duration, 24 h by default', () => {
    assert.equal(identitySettingsFromEnv({}).jwtMaxAgeMs, DEFAULT_JWT_MAX_AGE_MS);
    assert.equal(identitySettingsFromEnv({ AUTH_JWT_MAX_AGE: '90m' }).jwtMaxAgeMs, 90 * 60_000);
    assert.throws(() => identitySettingsFromEnv({ AUTH_JWT_MAX_AGE: '1 day' }), /AUTH_JWT_MAX_AGE: "1 day" is not a duration/);
  });

  it('reads AUTH_JWKS_COOLDOWN_MS as milliseconds ≥ 0, 30 s by default', () => {
    assert.equal(identitySettingsFromEnv({}).jwksCooldownMs, 30_000);
    assert.equal(identitySettingsFromEnv({ AUTH_JWKS_COOLDOWN_MS: '0' }).jwksCooldownMs, 0);
    assert.throws(
      () => identitySettingsFromEnv({ AUTH_JWKS_COOLDOWN_MS: '-1' }),
      /AUTH_JWKS_COOLDOWN_MS must be an integer ≥ 0 \(milliseconds\) \(got "-1"\)/,
    );
  });
});
