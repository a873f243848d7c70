import { ForbiddenException, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Request } from 'express';
import { MCP_OPTIONS, type ResolvedMcpOptions } from '@nest-mcp/core/extensions';
import { routeChannel } from '../context/request-channel.js';
import { AuthenticationRequiredException, resourceMetadataUrl } from './auth-challenge.js';
import { IDENTITY_CONFIG, type IdentityConfig } from './identity.config.js';
import { JwtTokenVerifier } from './jwt-token.verifier.js';
import { PersonalTokenService } from './personal-token.service.js';
import type { Principal, Surface } from './principal.js';
import { looksLikePersonalToken } from './token-secret.js';

const SURFACE_NAMES: Record<Surface, string> = { mcp: 'the MCP endpoint', api: 'the REST API' };

/**
 * Finds the caller of a request: `Authorization: Bearer <token>`, or `X-API-Key: <token>`, and
 * accepts it only on the surface its credential was issued for (docs/security.md): a personal
 * token's `surfaces`, a JWT's audience.
 */
@Injectable()
export class AuthenticationService implements OnApplicationBootstrap {
  constructor(
    private readonly personalTokens: PersonalTokenService,
    private readonly jwt: JwtTokenVerifier,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(MCP_OPTIONS) private readonly mcp: ResolvedMcpOptions,
  ) {}

  /** Says at boot which credentials are accepted, and how a JWT maps to a user: an operator checks it once. */
  onApplicationBootstrap(): void {
    const config = this.config;
    const modes = ['personal tokens (each for mcp, api or both)'];
    if (this.jwt.enabled) {
      const identity = [
        'linked subjects',
        config.jwtLinkVerifiedEmail && 'verified-email linking',
        config.jwtProvisionUsers && 'provisioning',
      ];
      modes.push(
        `JWTs from ${config.jwtIssuer} (aud on mcp: ${config.jwtAudience ?? `<public URL>${this.mcp.path}`}, on api: ` +
          `${config.jwtApiAudience ?? '<public URL>/v1'}; scopes from "${config.jwtScopeClaim}"; identity: ${identity.filter(Boolean).join(' + ')})`,
      );
    }
    const challenge = config.challengeScopes.length ? config.challengeScopes.join(' ') : 'none';
    new Logger('Identity').log(`Authentication: ${modes.join('; ')}; first challenge scope: ${challenge}`);
  }

  async authenticate(req: Request): Promise<Principal> {
    const metadataUrl = resourceMetadataUrl(this.config.publicUrl);
    const token = bearerToken(req);
    if (!token) {
      throw new AuthenticationRequiredException(
        'Authentication required: send "Authorization: Bearer <token>" (or "X-API-Key: <token>")',
        metadataUrl,
        false,
        this.config.challengeScopes,
      );
    }
    const check =
      looksLikePersonalToken(token) || !this.jwt.enabled
        ? await this.personalTokens.check(token)
        : await this.jwt.check(token, this.audiences);
    if (!check.ok) throw new AuthenticationRequiredException(check.reason, metadataUrl, true);
    const surface = this.surfaceOf(req);
    if (!check.principal.surfaces.includes(surface)) this.refuseSurface(check.principal, surface, metadataUrl);
    return check.principal;
  }

  /**
   * The surface a request is for: the route Express matched, or before routing (a large body is
   * authenticated before it is read) the path its body reader is mounted on.
   */
  private surfaceOf(req: Request): Surface {
    if (req.route) return routeChannel(req, this.mcp.path) === 'mcp' ? 'mcp' : 'api';
    return req.baseUrl.replace(/\/+$/, '').toLowerCase() === this.mcp.path.toLowerCase() ? 'mcp' : 'api';
  }

  /** A JWT for another audience is not a valid token here (401); a personal token for another surface is refused (403). */
  private refuseSurface(principal: Principal, surface: Surface, metadataUrl: string): never {
    const issued = principal.surfaces.map((s) => SURFACE_NAMES[s]).join(' and ') || 'no surface';
    if (principal.kind === 'jwt') {
      throw new AuthenticationRequiredException(
        `The access token was issued for ${issued}, not ${SURFACE_NAMES[surface]}: ask the authorization server for one with audience ${this.audiences[surface]}`,
        metadataUrl,
        true,
      );
    }
    throw new ForbiddenException({
      statusCode: 403,
      error: 'wrong_channel',
      message:
        `This token is issued for ${issued} only, not ${SURFACE_NAMES[surface]}: ` +
        `use a token issued for ${surface} (npm run token -- --for ${surface}, or --for mcp,api)`,
    });
  }

  /** This server's MCP endpoint as an OAuth resource, from the public URL fixed at boot (never the request's Host). */
  get resourceUrl(): string {
    return `${this.config.publicUrl}${this.mcp.path}`;
  }

  /** The `aud` a JWT must name on each surface: AUTH_JWT_AUDIENCE (else this resource), AUTH_JWT_API_AUDIENCE (else <public URL>/v1). */
  private get audiences(): Record<Surface, string> {
    return { mcp: this.config.jwtAudience ?? this.resourceUrl, api: this.config.jwtApiAudience ?? `${this.config.publicUrl}/v1` };
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
