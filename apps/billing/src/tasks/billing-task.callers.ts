import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { decodeJwt } from 'jose';
import {
  MCP_OPTIONS,
  type McpTaskCallers,
  type McpTaskCallOrigin,
  McpTaskRefused,
  type ResolvedMcpOptions,
} from '@nest-mcp/core/extensions';
import { RequestContext, type RequestState } from '../context/request-context.js';
import { PrismaService } from '../database/prisma.service.js';
import { PersonalTokenService } from '../identity/personal-token.service.js';
import type { Principal, PrincipalMembership } from '../identity/principal.js';
import { principalOf, requestWorkspace } from '../identity/request-principal.js';
import { WorkspaceResolver } from '../identity/workspace.resolver.js';
import { actingRequest } from './acting-request.js';
import { callerOf, parseCaller, type TaskCaller } from './task-caller.js';

/**
 * The MCP layer's `taskCallers`: how a task, run by a worker on any replica long after its
 * request is gone, acts as the person who asked.
 *
 * `capture` keeps who the caller is (`TaskCaller`, never the token) and the workspace the request
 * acted in. `actAs` checks again, at each run, that they may still act, as the token check of a
 * request would now: a personal token read again by id (revoked, expired, its scopes and bound
 * workspace), a JWT's expiry and its subject's link to the user (a JWT cannot be looked up again:
 * it stands until its `exp`, as it would on a request), the memberships read again, and the
 * membership of the task's workspace still there. Then `work` runs with a request whose principal
 * is set (the guards take it as authenticated), inside the request context the middleware would
 * open for an MCP request (channel `mcp`: the run's writes are stamped `created_via: mcp`).
 */
@Injectable()
export class BillingTaskCallers implements McpTaskCallers {
  constructor(
    private readonly prisma: PrismaService,
    private readonly personalTokens: PersonalTokenService,
    private readonly workspaces: WorkspaceResolver,
    @Inject(MCP_OPTIONS) private readonly mcp: ResolvedMcpOptions,
  ) {}

  async capture(request: Request, call: McpTaskCallOrigin): Promise<{ caller: Record<string, unknown>; workspaceId?: string }> {
    const state = RequestContext.current();
    const principal = principalOf(request) ?? state?.principal;
    if (!principal) throw new McpTaskRefused('A task needs an authenticated caller: this request has none');
    const workspace =
      requestWorkspace(request) ?? state?.workspace ?? this.namedWorkspace(request, principal, call.arguments?.workspace_id);
    const expiresAtMs = principal.kind === 'jwt' ? jwtExpiry(request) : undefined;
    // Every JWT accepted here has an `exp` (required); one not found in the request would act for ever.
    if (principal.kind === 'jwt' && expiresAtMs === undefined)
      throw new McpTaskRefused('The expiry of this access token cannot be read: it cannot start a task');
    const caller = callerOf(principal, workspace, state?.channel ?? 'mcp', expiresAtMs);
    return { caller: caller as unknown as Record<string, unknown>, ...(workspace ? { workspaceId: workspace.id } : {}) };
  }

  async actAs<T>(stored: Record<string, unknown>, work: (request: Request) => Promise<T>): Promise<T> {
    const caller = parseCaller(stored);
    const principal = await this.principalNow(caller);
    const workspace = caller.workspace ? this.stillMember(principal, caller.workspace.id) : undefined;
    const request = actingRequest(principal, workspace, caller.channel, this.mcp.path);
    // What RequestContextMiddleware opens for a request (its principal; the workspace is WorkspaceGuard's to set).
    const state: RequestState = { channel: caller.channel, principal, request };
    return RequestContext.run(state, () => work(request));
  }

  /** The caller as a token check would see them now; throws `McpTaskRefused` when they may no longer act. */
  private async principalNow(caller: TaskCaller): Promise<Principal> {
    let principal: Principal;
    if (caller.kind === 'personal') {
      const check = await this.personalTokens.checkById(caller.tokenId);
      if (!check.ok) throw new McpTaskRefused(check.reason);
      if (check.principal.userId !== caller.userId) throw new McpTaskRefused('The access token is not valid');
      principal = { ...check.principal, ...(caller.onBehalfOf !== undefined ? { onBehalfOf: caller.onBehalfOf } : {}) };
    } else {
      if (caller.kind === 'jwt') await this.assertJwtStands(caller);
      const user = await this.prisma.client.user.findUnique({
        where: { id: caller.userId },
        select: { email: true, memberships: { select: { workspaceId: true, role: true, workspace: { select: { slug: true } } } } },
      });
      if (!user) throw new McpTaskRefused('The user this task acts for no longer exists');
      principal = {
        userId: caller.userId,
        email: user.email,
        tokenId: caller.tokenId,
        kind: caller.kind,
        scopes: caller.scopes,
        surfaces: caller.surfaces,
        ...(caller.callerId !== undefined ? { callerId: caller.callerId } : {}),
        ...(caller.onBehalfOf !== undefined ? { onBehalfOf: caller.onBehalfOf } : {}),
        ...(caller.boundWorkspaceId !== undefined ? { workspaceId: caller.boundWorkspaceId } : {}),
        memberships: user.memberships.map((m): PrincipalMembership => ({
          workspaceId: m.workspaceId,
          slug: m.workspace.slug,
          role: m.role,
        })),
      };
    }
    // Issued for this surface (a request's token check refuses the others; the acting request skips that check).
    if (
      (caller.channel === 'mcp' || caller.channel === 'api') &&
      principal.kind !== 'panel' &&
      !principal.surfaces.includes(caller.channel)
    ) {
      throw new McpTaskRefused(
        `The access token is no longer issued for ${caller.channel === 'mcp' ? 'the MCP endpoint' : 'the REST API'}`,
      );
    }
    if (principal.workspaceId !== undefined && !principal.memberships.some((m) => m.workspaceId === principal.workspaceId)) {
      throw new McpTaskRefused('The workspace of this token is no longer yours');
    }
    return principal;
  }

  /** A JWT cannot be revoked before its `exp`; what can change is its subject's link to the user (unlinked, relinked). */
  private async assertJwtStands(caller: TaskCaller): Promise<void> {
    if (caller.expiresAtMs === undefined || caller.expiresAtMs <= Date.now()) throw new McpTaskRefused('The access token has expired');
    if (caller.issuer === undefined || caller.subject === undefined) throw new McpTaskRefused('The access token is not valid');
    const link = await this.prisma.client.externalIdentity.findUnique({
      where: { issuer_subject: { issuer: caller.issuer, subject: caller.subject } },
      select: { userId: true },
    });
    if (link?.userId !== caller.userId) throw new McpTaskRefused("The access token's subject is no longer linked to this user");
  }

  /** The task's workspace, as the caller's membership has it now (its slug may have changed). */
  private stillMember(principal: Principal, workspaceId: string): { id: string; slug: string } {
    const membership = this.workspaces.membership(principal, workspaceId);
    if (!membership) throw new McpTaskRefused('You are no longer a member of the workspace this task runs in');
    return { id: membership.workspaceId, slug: membership.slug };
  }

  /**
   * The workspace a call names when no guard resolved one (a tool that is not `@WorkspaceScoped()`):
   * the token's own, the call's `workspace_id` argument, `X-Workspace-Id`, the only membership;
   * none when it names none it may act in (the worker's guards then refuse as usual).
   */
  private namedWorkspace(request: Request, principal: Principal, argument: unknown): { id: string; slug: string } | undefined {
    try {
      const membership = this.workspaces.resolve(request, principal, argument);
      return { id: membership.workspaceId, slug: membership.slug };
    } catch {
      return undefined;
    }
  }
}

/** The `exp` of the request's JWT (verified by the authentication guard of this very request), epoch milliseconds. */
function jwtExpiry(request: Request): number | undefined {
  const authorization = request.headers.authorization;
  const apiKey = request.headers['x-api-key'];
  const token = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : typeof apiKey === 'string' ? apiKey.trim() : undefined;
  if (!token) return undefined;
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
