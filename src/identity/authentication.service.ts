import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { MCP_OPTIONS, type ResolvedMcpOptions } from '../mcp/index.js';
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
    const metadataUrl = resourceMetadataUrl(req, this.config.publicUrl);
    const token = bearerToken(req);
    if (!token) {
      throw new AuthenticationRequiredException(
        'Authentication required: send "Authorization: Bearer <token>" (or "X-API-Key: <token>")',
        metadataUrl,
      );
    }
    const check = looksLikePersonalToken(token) || !this.jwt.enabled
      ? await this.personalTokens.check(token)
      : await this.jwt.check(token, this.resourceUrl(req));
    if (!check.ok) throw new AuthenticationRequiredException(check.reason, metadataUrl);
    return check.principal;
  }

  /** This server's MCP endpoint as an OAuth resource: the audience its JWTs must name. */
  resourceUrl(req: Request): string {
    return `${this.config.publicUrl ?? `${req.protocol}://${req.get('host')}`}${this.mcp.path}`;
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
