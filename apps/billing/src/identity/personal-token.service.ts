import { ForbiddenException, Inject, Injectable, Optional } from '@nestjs/common';
import type { McpPrincipal, McpTokenCheck, McpTokenVerifier } from '@nest-mcp/auth';
import { asDatabaseUnavailable } from '@nest-mcp/prisma';
import { PrismaService } from '../database/prisma.service.js';
import { Prisma, type Role } from '../generated/prisma/client.js';
import { SURFACES, type Principal, type PrincipalMembership, type Surface } from './principal.js';
import { declaredScopes, ROLE_SCOPES, type RoleScopes } from './role-scopes.js';
import { TokenCache } from './token-cache.js';
import { mcpPrincipalFor } from './request-principal.js';
import { displayPrefix, generateTokenSecret, hashToken, looksLikePersonalToken } from './token-secret.js';

const SURFACE_NAMES: Record<Surface, string> = { mcp: 'the MCP endpoint', api: 'the REST API' };

export interface MintRequest {
  email: string;
  scopes: string[];
  workspaceSlug?: string;
  expiresInMs?: number;
  label?: string;
  /** Where the token is accepted (default `['mcp']`: a token for an agent). */
  surfaces?: Surface[];
}

export type TokenCheck = { ok: true; principal: Principal } | { ok: false; reason: string };

/** One row of {@link PersonalTokenService.lookup}: the token, its user's email and every membership. */
interface TokenRow {
  id: string;
  userId: string;
  workspaceId: string | null;
  scopes: string[];
  surfaces: Surface[];
  email: string;
  revoked: boolean;
  /** Epoch milliseconds (timestamps are stored in UTC), or null: no expiry. */
  expiresAtMs: number | null;
  memberships: Array<{ workspaceId: string; slug: string; role: Role }>;
}

/**
 * Personal access tokens: minted for a user, stored as a hash, checked on every request (a token
 * verifier of `@nest-mcp/auth`: every `mcp_pat_…` token comes here, any other is a JWT).
 */
@Injectable()
export class PersonalTokenService implements McpTokenVerifier {
  private readonly knownScopes: readonly string[];

  constructor(
    private readonly prisma: PrismaService,
    /** The application's role mapping: a token may only carry scopes it declares. */
    @Inject(ROLE_SCOPES) roleScopes: RoleScopes,
    /** Absent outside the application (the token CLI): every check reads the database. */
    @Optional() private readonly cache?: TokenCache,
  ) {
    this.knownScopes = declaredScopes(roleScopes);
  }

  /** Names the unknown scopes; when they are known scopes joined by commas, says how to separate them. */
  private unknownScopesMessage(scopes: readonly string[], unknown: readonly string[]): string {
    const known = `Known: ${this.knownScopes.join(' ')}`;
    const split = scopes.flatMap((scope) => scope.split(',')).filter(Boolean);
    if (unknown.some((scope) => scope.includes(',')) && split.every((scope) => this.knownScopes.includes(scope))) {
      return `Unknown scope(s): ${unknown.join(', ')}. Scopes are separated by spaces, not commas: --scopes "${split.join(' ')}". ${known}`;
    }
    return `Unknown scope(s): ${unknown.join(', ')}. ${known}`;
  }

  async mint(request: MintRequest): Promise<{ token: string; id: string; expiresAt: Date | null }> {
    const unknown = request.scopes.filter((scope) => !this.knownScopes.includes(scope));
    if (unknown.length) throw new Error(this.unknownScopesMessage(request.scopes, unknown));
    if (!request.scopes.length) throw new Error('A token needs at least one scope');
    const surfaces = [...new Set(request.surfaces ?? ['mcp'])];
    const unknownSurfaces = surfaces.filter((surface) => !(SURFACES as readonly string[]).includes(surface));
    if (unknownSurfaces.length || !surfaces.length) {
      throw new Error(`A token is issued for mcp, api or both (got ${JSON.stringify(request.surfaces)})`);
    }
    const user = await this.prisma.client.user.findUnique({
      where: { email: request.email.toLowerCase() },
      include: { memberships: { include: { workspace: true } } },
    });
    if (!user) throw new Error(`No user with email ${request.email}`);
    let workspaceId: string | undefined;
    if (request.workspaceSlug) {
      const membership = user.memberships.find((m) => m.workspace.slug === request.workspaceSlug);
      if (!membership) throw new Error(`${request.email} is not a member of workspace ${request.workspaceSlug}`);
      workspaceId = membership.workspaceId;
    }
    const token = generateTokenSecret();
    const expiresAt = request.expiresInMs ? new Date(Date.now() + request.expiresInMs) : null;
    const record = await this.prisma.client.accessToken.create({
      data: {
        tokenHash: hashToken(token),
        prefix: displayPrefix(token),
        userId: user.id,
        workspaceId,
        scopes: request.scopes,
        surfaces,
        label: request.label,
        expiresAt,
      },
    });
    return { token, id: record.id, expiresAt };
  }

  handles(token: string): boolean {
    return looksLikePersonalToken(token);
  }

  async verify(token: string): Promise<McpTokenCheck> {
    const check = await this.check(token);
    return check.ok ? { ok: true, principal: mcpPrincipalFor(check.principal) } : check;
  }

  /** A token used on a surface it was not issued for: 403, naming how to mint one for that surface. */
  refuseSurface(principal: McpPrincipal, surface: Surface): Error {
    const issued = principal.surfaces.map((s) => SURFACE_NAMES[s]).join(' and ') || 'no surface';
    return new ForbiddenException({
      statusCode: 403,
      error: 'wrong_channel',
      message:
        `This token is issued for ${issued} only, not ${SURFACE_NAMES[surface]}: ` +
        `use a token issued for ${surface} (npm run token -- --for ${surface}, or --for mcp,api)`,
    });
  }

  /**
   * The caller a token stands for. A verified token is answered from the cache (when it runs,
   * see TokenCache) until its entry or the token expires; otherwise one query reads the token,
   * its user and the user's memberships.
   */
  async check(token: string): Promise<TokenCheck> {
    const digest = hashToken(token);
    const cached = this.cache?.get(digest);
    if (cached) return { ok: true, principal: cached };
    const ticket = this.cache?.ticket() ?? 0;
    const record = await this.lookup(Prisma.sql`t.token_hash = ${digest}`);
    const check = checkOf(record);
    if (check.ok) this.cache?.set(digest, check.principal, record!.expiresAtMs, ticket);
    return check;
  }

  /**
   * The caller a token stands for now, by the token's id (never its secret; never cached): for
   * work done later on the token's behalf (a queued MCP task), refused on the same grounds as
   * {@link check} (revoked, expired), with the memberships as they are now.
   */
  async checkById(tokenId: string): Promise<TokenCheck> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(tokenId))
      return { ok: false, reason: 'The access token is not valid' };
    return checkOf(await this.lookup(Prisma.sql`t.id = ${tokenId}::uuid`));
  }

  /**
   * Token, user and memberships in ONE statement, looked up by a unique key of `access_tokens` (the
   * digest's index, or the primary key): a nested Prisma `include` would be one query per relation.
   */
  private async lookup(key: Prisma.Sql): Promise<TokenRow | undefined> {
    try {
      const rows = await this.prisma.client.$queryRaw<TokenRow[]>(Prisma.sql`
        SELECT t.id::text AS "id", t.user_id::text AS "userId", t.workspace_id::text AS "workspaceId", t.scopes AS "scopes",
               COALESCE(t.surfaces, ARRAY['mcp']) AS "surfaces",
               u.email AS "email", t.revoked_at IS NOT NULL AS "revoked",
               (extract(epoch FROM t.expires_at) * 1000)::float8 AS "expiresAtMs",
               COALESCE(
                 json_agg(json_build_object('workspaceId', m.workspace_id, 'slug', w.slug, 'role', m.role) ORDER BY m.created_at, w.slug)
                   FILTER (WHERE m.workspace_id IS NOT NULL),
                 '[]'::json
               ) AS "memberships"
        FROM access_tokens t
        JOIN users u ON u.id = t.user_id
        LEFT JOIN memberships m ON m.user_id = t.user_id
        LEFT JOIN workspaces w ON w.id = m.workspace_id
        WHERE ${key}
        GROUP BY t.id, u.id`);
      return rows[0];
    } catch (error) {
      throw asDatabaseUnavailable(error);
    }
  }

  async revoke(id: string): Promise<void> {
    await this.prisma.client.accessToken.update({ where: { id }, data: { revokedAt: new Date() } });
    // Other replicas hear it from the database (identity_changed); this one forgets it at once.
    this.cache?.clear();
  }
}

/** A looked-up token as a check's answer: refused when unknown, revoked or expired. */
function checkOf(record: TokenRow | undefined): TokenCheck {
  if (!record) return { ok: false, reason: 'The access token is not valid' };
  if (record.revoked) return { ok: false, reason: 'The access token has been revoked' };
  if (record.expiresAtMs !== null && record.expiresAtMs <= Date.now()) return { ok: false, reason: 'The access token has expired' };
  const principal: Principal = {
    userId: record.userId,
    email: record.email,
    tokenId: record.id,
    kind: 'personal',
    scopes: record.scopes,
    surfaces: record.surfaces,
    ...(record.workspaceId ? { workspaceId: record.workspaceId } : {}),
    memberships: record.memberships.map((m): PrincipalMembership => ({ workspaceId: m.workspaceId, slug: m.slug, role: m.role })),
  };
  return { ok: true, principal };
}
