import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose';
import type { McpSurface, ResolvedMcpAuthOptions } from '../options/mcp-auth.options.js';
import type { McpTokenCheck } from './token-verifier.js';
import { scopesOfClaim } from './scopes-claim.js';
import { jwtTokenId } from './token-id.js';
import type { McpUserResolver } from './user-resolver.js';

type Issuer = ResolvedMcpAuthOptions['issuers'][number];
/** The audiences a token must name on each surface, for one issuer. */
export type SurfaceAudiences = Record<McpSurface, string[]>;

/**
 * Access tokens of the trusted authorization servers (this server is only a resource server): the
 * token's `iss` picks its issuer, whose JWKS checks the signature (fetched again when a new key id
 * appears, so a key rotation needs no restart); then the audience of a surface, a required expiry no
 * further than `maxTokenAgeMs` from issuance, and a required subject. Who the token acts as is the
 * `McpUserResolver`'s answer (an email claim never names a user by itself).
 */
export class JwtAccessTokenVerifier {
  private readonly issuers = new Map<string, { issuer: Issuer; keys: ReturnType<typeof createRemoteJWKSet> }>();

  constructor(
    private readonly options: ResolvedMcpAuthOptions,
    private readonly users?: McpUserResolver,
  ) {
    for (const issuer of options.issuers) {
      const keys = createRemoteJWKSet(issuer.jwksUri, {
        cooldownDuration: options.jwksCooldownMs,
        cacheMaxAge: options.jwksCacheMaxAgeMs,
      });
      this.issuers.set(issuer.issuer, { issuer, keys });
    }
  }

  get enabled(): boolean {
    return this.issuers.size > 0;
  }

  /** `audiencesOf`: the `aud` that makes a token of that issuer valid on each surface; the principal's surfaces are the ones its `aud` names. */
  async verify(token: string, audiencesOf: (issuer: Issuer) => SurfaceAudiences): Promise<McpTokenCheck> {
    let iss: unknown;
    try {
      iss = decodeJwt(token).iss;
    } catch {
      return { ok: false, reason: 'The access token is not valid' };
    }
    const trusted = typeof iss === 'string' ? this.issuers.get(iss) : undefined;
    if (!trusted) {
      return {
        ok: false,
        reason: `The access token's iss claim is not accepted: this server accepts tokens from ${[...this.issuers.keys()].join(', ')}`,
      };
    }
    const audiences = audiencesOf(trusted.issuer);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, trusted.keys, {
        issuer: trusted.issuer.issuer,
        audience: [...audiences.mcp, ...audiences.api],
        requiredClaims: ['exp'],
        clockTolerance: this.options.clockToleranceSeconds,
        ...(trusted.issuer.requireAtJwt ? { typ: 'at+jwt' } : {}),
      }));
    } catch (error) {
      return { ok: false, reason: reasonOf(error, trusted.issuer.issuer) };
    }
    if (typeof payload.sub !== 'string' || !payload.sub) {
      return { ok: false, reason: 'The access token has no subject (sub claim): this server needs one to tell callers apart' };
    }
    const tooLong = lifetimeBeyond(payload, this.options.maxTokenAgeMs);
    if (tooLong) return { ok: false, reason: tooLong };
    const issuer = trusted.issuer.issuer;
    const user = this.users ? await this.users.resolve({ issuer, subject: payload.sub, claims: payload }) : undefined;
    if (typeof user === 'string') return { ok: false, reason: user };
    return {
      ok: true,
      principal: {
        kind: 'jwt',
        issuer,
        subject: payload.sub,
        tokenId: jwtTokenId(payload),
        callerId: jwtTokenId({ iss: issuer, sub: payload.sub }),
        scopes: scopesOfClaim(payload[trusted.issuer.scopeClaim]),
        surfaces: surfacesNamed(payload.aud, audiences),
        expiresAt: payload.exp! * 1000,
        ...(typeof payload.iat === 'number' ? { issuedAt: payload.iat * 1000 } : {}),
        ...(user !== undefined ? { user } : {}),
      },
    };
  }
}

/** The surfaces whose audiences the token's `aud` (one value or a list) names. */
function surfacesNamed(aud: JWTPayload['aud'], audiences: SurfaceAudiences): McpSurface[] {
  const named = new Set(typeof aud === 'string' ? [aud] : (aud ?? []));
  return (Object.keys(audiences) as McpSurface[]).filter((surface) => audiences[surface].some((audience) => named.has(audience)));
}

/**
 * A token may live at most `maxAgeMs`, counted from `iat` (or from now when `iat` is absent or in
 * the future): a long-lived token is refused for its whole life, not only until its last day.
 */
function lifetimeBeyond(payload: JWTPayload, maxAgeMs: number): string | undefined {
  const now = Math.floor(Date.now() / 1000);
  const from = typeof payload.iat === 'number' ? Math.min(payload.iat, now) : now;
  if ((payload.exp! - from) * 1000 <= maxAgeMs) return undefined;
  return `The access token's lifetime is longer than this server accepts (${duration(maxAgeMs)}): ask for a shorter-lived token`;
}

function duration(ms: number): string {
  const hours = ms / 3_600_000;
  return Number.isInteger(hours) ? `${hours} h` : `${Math.round(ms / 60_000)} min`;
}

function reasonOf(error: unknown, issuer: string): string {
  if (error instanceof errors.JWTExpired) return 'The access token has expired';
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'typ') {
    return (
      'The access token is not typed at+jwt in its header (RFC 9068): this server takes no other JWT for an access token. ' +
      `If ${issuer} issues its access tokens typed JWT, its operator sets requireAtJwt: false for it`
    );
  }
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
