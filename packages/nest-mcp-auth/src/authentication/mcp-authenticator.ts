import { ForbiddenException, Inject, Injectable, Logger, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request } from 'express';
import { MCP_OPTIONS, type ResolvedMcpOptions } from '@nest-mcp/core/extensions';
import { McpAuthenticationRequiredException, resourceMetadataUrl } from '../challenge/authentication-required.exception.js';
import { MCP_AUTH_OPTIONS, type McpSurface, type ResolvedMcpAuthOptions } from '../options/mcp-auth.options.js';
import { setMcpPrincipal, type McpPrincipal } from '../principal/mcp-principal.js';
import { MCP_AUTH_STEP_UPS, type McpStepUpStore } from '../challenge/step-up-store.js';
import { JwtAccessTokenVerifier, type SurfaceAudiences } from '../tokens/jwt-access-token.verifier.js';
import { MCP_AUTH_TOKEN_VERIFIERS, type McpTokenCheck, type McpTokenVerifier } from '../tokens/token-verifier.js';
import { MCP_AUTH_USER_RESOLVER, type McpUserResolver } from '../tokens/user-resolver.js';
import { boundBaseUrl } from './bound-url.js';
import { requestSurface } from './request-surface.js';

const SURFACE_NAMES: Record<McpSurface, string> = { mcp: 'the MCP endpoint', api: 'the REST API' };

/**
 * Finds the caller of a request from `Authorization: Bearer <token>` (or `apiKeyHeader`), and
 * accepts it only on the surface its credential was issued for: a JWT's audience, a verifier's
 * `surfaces`. `McpAuthGuard` runs it on every route; an application runs it itself where a guard
 * does not (before a large body is read, in front of a static page).
 */
@Injectable()
export class McpAuthenticator implements OnApplicationBootstrap {
  private readonly jwt: JwtAccessTokenVerifier;
  private derivedPublicUrl?: string;

  constructor(
    @Inject(MCP_AUTH_OPTIONS) private readonly options: ResolvedMcpAuthOptions,
    @Inject(MCP_OPTIONS) private readonly mcp: ResolvedMcpOptions,
    @Inject(MCP_AUTH_TOKEN_VERIFIERS) private readonly verifiers: McpTokenVerifier[],
    private readonly adapter: HttpAdapterHost,
    /** When each caller was last sent to step up (`McpScopePolicy` asks before challenging again). */
    @Inject(MCP_AUTH_STEP_UPS) readonly stepUps: McpStepUpStore,
    @Optional() @Inject(MCP_AUTH_USER_RESOLVER) users?: McpUserResolver,
  ) {
    this.jwt = new JwtAccessTokenVerifier(options, users);
  }

  /** Says at boot which credentials are accepted and where: an operator checks it once. */
  onApplicationBootstrap(): void {
    const modes = this.options.issuers.map(
      (issuer) =>
        `JWTs from ${issuer.issuer} (aud on mcp: ${issuer.audience.mcp?.join(' or ') ?? `<public URL>${this.mcp.path}`}, on api: ` +
        `${issuer.audience.api?.join(' or ') ?? '<public URL>'}; scopes from "${issuer.scopeClaim}"; ` +
        `typ ${issuer.requireAtJwt ? 'at+jwt required' : 'not checked'})`,
    );
    if (this.verifiers.length) modes.unshift(`${this.verifiers.length} token verifier(s) of the application`);
    const challenge = this.options.challengeScopes.join(' ') || 'none';
    new Logger('McpAuth').log(`Authentication: ${modes.join('; ')}; first challenge scope: ${challenge}`);
  }

  /** This server's public base URL, no trailing slash: `publicUrl`, else the address it is bound to (asked once it listens). */
  get publicUrl(): string {
    return this.options.publicUrl ?? (this.derivedPublicUrl ??= boundBaseUrl(this.adapter.httpAdapter?.getHttpServer()?.address()));
  }

  /** This server's MCP endpoint as an OAuth resource (the metadata's `resource`). */
  get resourceUrl(): string {
    return `${this.publicUrl}${this.mcp.path}`;
  }

  /** Where the protected-resource metadata is served: every challenge names it. */
  get resourceMetadataUrl(): string {
    return resourceMetadataUrl(this.publicUrl);
  }

  /** The options as resolved at boot (scopes, challenge scopes, issuers, …). */
  get settings(): ResolvedMcpAuthOptions {
    return this.options;
  }

  /**
   * The caller of the request, set on it (`mcpPrincipalOf`) and returned; throws the 401 challenge
   * (no token, or a token refused), or the refusal of a credential used on a surface it was not
   * issued for. Called again on a request, it checks again and replaces the principal.
   */
  async authenticate(req: Request): Promise<McpPrincipal> {
    const token = this.tokenOf(req);
    if (!token) {
      const other = this.options.apiKeyHeader ? ` (or "${this.options.apiKeyHeader}: <token>")` : '';
      throw new McpAuthenticationRequiredException(`Authentication required: send "Authorization: Bearer <token>"${other}`, {
        resourceMetadataUrl: this.resourceMetadataUrl,
        scopes: this.options.challengeScopes,
      });
    }
    const verifier = this.verifiers.find((candidate) => candidate.handles(token));
    const check: McpTokenCheck = verifier
      ? await verifier.verify(token)
      : this.jwt.enabled
        ? await this.jwt.verify(token, (issuer) => this.audiencesOf(issuer))
        : { ok: false, reason: 'The access token is not valid' };
    if (!check.ok) {
      throw new McpAuthenticationRequiredException(check.reason, { resourceMetadataUrl: this.resourceMetadataUrl, invalidToken: true });
    }
    const { principal } = check;
    const surface = requestSurface(req, this.mcp.path);
    if (!principal.surfaces.includes(surface)) throw this.refuseSurface(principal, surface, verifier);
    setMcpPrincipal(req, principal);
    return principal;
  }

  /** The audiences a JWT of this issuer must name on each surface: its own, else this resource and the public URL. */
  private audiencesOf(issuer: ResolvedMcpAuthOptions['issuers'][number]): SurfaceAudiences {
    const resolve = (audiences: string[] | undefined, fallback: string) =>
      (audiences ?? [fallback]).map((audience) => (audience.startsWith('/') ? `${this.publicUrl}${audience}` : audience));
    return { mcp: resolve(issuer.audience.mcp, this.resourceUrl), api: resolve(issuer.audience.api, this.publicUrl) };
  }

  /** A JWT for another audience is not a valid token here (401); a verifier's credential for another surface is refused (403 by default). */
  private refuseSurface(principal: McpPrincipal, surface: McpSurface, verifier: McpTokenVerifier | undefined): Error {
    const issued = principal.surfaces.map((s) => SURFACE_NAMES[s]).join(' and ') || 'no surface';
    if (verifier?.refuseSurface) return verifier.refuseSurface(principal, surface);
    if (!verifier) {
      const issuer = this.options.issuers.find((entry) => entry.issuer === principal.issuer);
      const audiences = issuer ? this.audiencesOf(issuer)[surface].join(' or ') : '';
      return new McpAuthenticationRequiredException(
        `The access token was issued for ${issued}, not ${SURFACE_NAMES[surface]}: ask the authorization server for one with audience ${audiences}`,
        { resourceMetadataUrl: this.resourceMetadataUrl, invalidToken: true },
      );
    }
    return new ForbiddenException({
      statusCode: 403,
      error: 'wrong_channel',
      message: `This token is issued for ${issued} only, not ${SURFACE_NAMES[surface]}: use a token issued for ${surface}`,
    });
  }

  private tokenOf(req: Request): string | undefined {
    const authorization = req.headers.authorization;
    if (authorization) return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    const header = this.options.apiKeyHeader;
    const value = header ? req.headers[header.toLowerCase()] : undefined;
    return typeof value === 'string' && value.trim() ? value.trim() : undefined;
  }
}
