import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { MCP_OPTIONS, type ResolvedMcpOptions } from '@nest-mcp/core';
import { AuthenticationRequiredException, resourceMetadataUrl } from './auth-challenge.js';
import { IDENTITY_CONFIG, type IdentityConfig } from './identity.config.js';
import { JwtTokenVerifier } from './jwt-token.verifier.js';
import { PersonalTokenService } from './personal-token.service.js';
import type { Principal } from './principal.js';
import { looksLikePersonalToken } from './token-secret.js';

/** Finds the caller of a request: `Authorization: Bearer <token>`, or `X-API-Key: <token>`. */
@Injectable()
export class AuthenticationService {
  constructor(
    private readonly personalTokens: PersonalTokenService,
    private readonly jwt: JwtTokenVerifier,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(MCP_OPTIONS) private readonly mcp: ResolvedMcpOptions,
  ) {}

  async authenticate(req: Request): Promise<Principal> {
    const metadataUrl = resourceMetadataUrl(this.config.publicUrl);
    const token = bearerToken(req);
    if (!token) {
      throw new AuthenticationRequiredException(
        'Authentication required: send "Authorization: Bearer <token>" (or "X-API-Key: <token>")',
        metadataUrl,
      );
    }
    const check =
      looksLikePersonalToken(token) || !this.jwt.enabled
        ? await this.personalTokens.check(token)
        : await this.jwt.check(token, this.audience);
    if (!check.ok) throw new AuthenticationRequiredException(check.reason, metadataUrl, true);
    return check.principal;
  }

  /** This server's MCP endpoint as an OAuth resource, from the public URL fixed at boot (never the request's Host). */
  get resourceUrl(): string {
    return `${this.config.publicUrl}${this.mcp.path}`;
  }

  /** The `aud` a JWT must name: AUTH_JWT_AUDIENCE, else this resource. */
  private get audience(): string {
    return this.config.jwtAudience ?? this.resourceUrl;
  }
}

function bearerToken(req: Request): string | undefined {
  const authorization = req.headers.authorization;
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1];
  }
  const apiKey = req.headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey.trim() ? apiKey.trim() : undefined;
}
