import { Inject, Injectable } from '@nestjs/common';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { ExternalIdentityService } from './external-identity.service.js';
import { IDENTITY_CONFIG, type IdentityConfig } from './identity.config.js';
import type { TokenCheck } from './personal-token.service.js';
import type { Surface } from './principal.js';

/**
 * Access tokens issued by an external OAuth 2.1 authorization server (this server is only a
 * resource server): signature checked against the issuer's JWKS (refetched when a new key id
 * appears, so key rotation needs no restart), plus issuer, audience, a required expiry no further
 * than AUTH_JWT_MAX_AGE from issuance, and a required subject: the token's identity is iss + sub,
 * mapped to a user by ExternalIdentityService (an email claim never names a user by itself).
 */
@Injectable()
export class JwtTokenVerifier {
  private readonly jwks?: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    private readonly identities: ExternalIdentityService,
  ) {
    if (config.jwksUrl) {
      this.jwks = createRemoteJWKSet(new URL(config.jwksUrl), {
        cooldownDuration: config.jwksCooldownMs,
      });
    }
  }

  get enabled(): boolean {
    return !!this.jwks && !!this.config.jwtIssuer;
  }

  /**
   * `audiences`: the `aud` that makes the token valid on each surface (the MCP resource, the REST
   * API). The principal's `surfaces` are the ones its `aud` names; the caller refuses the others.
   */
  async check(token: string, audiences: Record<Surface, string>): Promise<TokenCheck> {
    if (!this.jwks || !this.config.jwtIssuer) return { ok: false, reason: 'The access token is not valid' };
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, {
        issuer: this.config.jwtIssuer,
        audience: Object.values(audiences),
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      return { ok: false, reason: reasonOf(error) };
    }
    if (typeof payload.sub !== 'string' || !payload.sub) {
      return { ok: false, reason: 'The access token has no subject (sub claim): this server needs one to tell callers apart' };
    }
    const tooLong = lifetimeBeyond(payload, this.config.jwtMaxAgeMs);
    if (tooLong) return { ok: false, reason: tooLong };
    const identity = await this.identities.resolve(payload.iss!, payload.sub, payload);
    if (!identity.ok) return identity;
    const { user } = identity;
    const scopes = scopesOf(payload[this.config.jwtScopeClaim]);
    return {
      ok: true,
      principal: {
        userId: user.id,
        email: user.email,
        tokenId: jwtTokenId(payload),
        callerId: jwtTokenId({ iss: payload.iss, sub: payload.sub }),
        kind: 'jwt',
        scopes,
        surfaces: surfacesNamed(payload.aud, audiences),
        memberships: user.memberships.map((m) => ({ workspaceId: m.workspaceId, slug: m.workspace.slug, role: m.role })),
      },
    };
  }
}

/** The granted scopes, from a space-separated string (`scope`, Entra's `scp`) or an array (Okta's `scp`). */
function scopesOf(claim: unknown): string[] {
  if (typeof claim === 'string') return claim.split(' ').filter(Boolean);
  return Array.isArray(claim) ? claim.filter((scope): scope is string => typeof scope === 'string' && scope.length > 0) : [];
}

/** The surfaces whose audience the token's `aud` (one value or a list) names. */
function surfacesNamed(aud: JWTPayload['aud'], audiences: Record<Surface, string>): Surface[] {
  const named = new Set(typeof aud === 'string' ? [aud] : (aud ?? []));
  return (Object.keys(audiences) as Surface[]).filter((surface) => named.has(audiences[surface]));
}

/**
 * The caller's token id: issuer and subject (two subjects never share one), plus `jti` when
 * present so that the audit trail tells one token from the next. Parts are percent-encoded so
 * that no subject can pass for a subject + jti.
 */
export function jwtTokenId(payload: JWTPayload): string {
  const part = (value: string) => encodeURIComponent(value);
  return `jwt:${payload.iss}#${part(payload.sub ?? '')}${typeof payload.jti === 'string' ? `#${part(payload.jti)}` : ''}`;
}

/**
 * A token may live at most `maxAgeMs`, counted from `iat` (or from now when `iat` is absent or in
 * the future): a long-lived token is refused for its whole life, not only until its last day.
 */
function lifetimeBeyond(payload: JWTPayload, maxAgeMs: number): string | undefined {
  const now = Math.floor(Date.now() / 1000);
  const from = typeof payload.iat === 'number' ? Math.min(payload.iat, now) : now;
  if ((payload.exp! - from) * 1000 <= maxAgeMs) return undefined;
  return `The access token's lifetime is longer than this server accepts (${formatHours(maxAgeMs)}, AUTH_JWT_MAX_AGE): ask for a shorter-lived token`;
}

function formatHours(ms: number): string {
  const hours = ms / 3_600_000;
  return Number.isInteger(hours) ? `${hours} h` : `${Math.round(ms / 60_000)} min`;
}

function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The access token has expired';
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'exp' && error.reason === 'missing') {
    return 'The access token has no expiry (exp claim): this server only accepts tokens that expire';
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    return error.claim === 'aud'
      ? 'The access token was issued for another resource (audience)'
      : `The access token's ${error.claim} claim is not accepted`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return 'The access token signature is not valid';
  }
  return 'The access token is not valid';
}
