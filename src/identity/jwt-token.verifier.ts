import { Inject, Injectable } from '@nestjs/common';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { PrismaService } from '../database/prisma.service.js';
import { IDENTITY_CONFIG, type IdentityConfig } from './identity.config.js';
import type { TokenCheck } from './personal-token.service.js';

/**
 * Access tokens issued by an external OAuth 2.1 authorization server (this server is only a
 * resource server): signature checked against the issuer's JWKS (refetched when a new key id
 * appears, so key rotation needs no restart), plus issuer, audience and expiry.
 */
@Injectable()
export class JwtTokenVerifier {
  private readonly jwks?: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    private readonly prisma: PrismaService,
  ) {
    if (config.jwksUrl) {
      this.jwks = createRemoteJWKSet(new URL(config.jwksUrl), {
        cooldownDuration: Number(process.env.AUTH_JWKS_COOLDOWN_MS ?? 30_000),
      });
    }
  }

  get enabled(): boolean {
    return !!this.jwks && !!this.config.jwtIssuer;
  }

  async check(token: string, expectedAudience: string): Promise<TokenCheck> {
    if (!this.jwks || !this.config.jwtIssuer) return { ok: false, reason: 'The access token is not valid' };
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, {
        issuer: this.config.jwtIssuer,
        audience: this.config.jwtAudience ?? expectedAudience,
      }));
    } catch (error) {
      return { ok: false, reason: reasonOf(error) };
    }
    const email = typeof payload.email === 'string' ? payload.email : payload.sub;
    const user = email
      ? await this.prisma.client.user.findUnique({
          where: { email: email.toLowerCase() },
          include: { memberships: { include: { workspace: true } } },
        })
      : null;
    if (!user) return { ok: false, reason: 'The access token names no known user' };
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
    return {
      ok: true,
      principal: {
        userId: user.id,
        email: user.email,
        tokenId: `jwt:${payload.jti ?? payload.sub}`,
        kind: 'jwt',
        scopes,
        memberships: user.memberships.map((m) => ({ workspaceId: m.workspaceId, slug: m.workspace.slug, role: m.role })),
      },
    };
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The access token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    return error.claim === 'aud' ? 'The access token was issued for another resource (audience)' : `The access token's ${error.claim} claim is not accepted`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return 'The access token signature is not valid';
  }
  return 'The access token is not valid';
}
