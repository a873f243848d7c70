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
    assert.throws(() => identitySettingsFromEnv(JWT), /set PUBLIC_URL .* or AUTH_JWT_AUDIENCE/);
    assert.equal(
      identitySettingsFromEnv({ ...JWT, AUTH_JWT_AUDIENCE: 'https://billing.example.test/mcp' }).jwtAudience,
      'https://billing.example.test/mcp',
    );
    assert.equal(identitySettingsFromEnv({ ...JWT, PUBLIC_URL: 'https://billing.example.test' }).jwtAudience, undefined);
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
