import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type {
  ApprovalView,
  McpAdminDirectory,
  McpAdminIdentity,
  McpAdminOptions,
  McpAdminPerson,
  McpAdminRequester,
} from '@nest-mcp/admin';
import { APPROVALS_CONFIG, type ApprovalsConfig } from '../approvals/approvals.config.js';
import { RequestContext } from '../context/request-context.js';
import { PrismaService } from '../database/prisma.service.js';
import { IDENTITY_CONFIG, type IdentityConfig } from '../identity/identity.config.js';
import type { Role } from '../generated/prisma/client.js';
import type { Principal } from '../identity/principal.js';
import { principalOf, setPrincipal } from '../identity/request-principal.js';
import { declaredScopes, ROLE_SCOPES, type RoleScopes } from '../identity/role-scopes.js';
import { PanelAuthService } from './panel-auth.service.js';
import { SESSION_COOKIE, cookie } from './panel-http.js';

/** Who may watch and cancel the tasks of a workspace on the admin pages. */
const TASK_ADMIN_ROLE: Role = 'admin';
/** Personal access token ids are UUIDs; other credentials (a JWT's `iss#jti`, …) have no row to name them. */
const TOKEN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * This app's side of @nest-mcp/admin (`McpAdminModule` options, panel.module.ts): the person is the
 * panel session's user (the password sign-in, panel-login.controller.ts); users, workspaces and
 * tokens are the directory; a link is asked for in the request's workspace by its principal; and
 * Continue runs the call as the approver, with what their role allows.
 */
@Injectable()
export class PanelAccess implements McpAdminIdentity, McpAdminDirectory {
  readonly signOutPath = '/admin/logout';

  constructor(
    private readonly prisma: PrismaService,
    private readonly auth: PanelAuthService,
    @Inject(APPROVALS_CONFIG) private readonly approvals: ApprovalsConfig,
    @Inject(IDENTITY_CONFIG) private readonly identity: IdentityConfig,
    @Inject(ROLE_SCOPES) private readonly roles: RoleScopes,
  ) {}

  /** The options of `McpAdminModule.forRootAsync` (APPROVAL_TTL_MINUTES, APPROVAL_ROLES, PUBLIC_URL or the bound address). */
  options(): McpAdminOptions {
    return {
      publicUrl: () => this.identity.publicUrl,
      approvalTtlMs: this.approvals.ttlMs,
      channel: 'panel',
      title: 'Billing admin',
      missingTenant: 'needs a workspace to ask for approval in. Pass workspace_id and call again.',
      identity: this,
      directory: this,
      requester: () => this.requester(),
      // Who presses Continue / Cancel in the approval view: the person of the MCP call's token.
      callerPerson: (invocation) => principalOf(invocation.httpRequest)?.userId,
      actAs: (person, approval, request) => this.actAs(person, approval, request),
    };
  }

  async person(request: Request): Promise<McpAdminPerson | undefined> {
    const session = await this.auth.session(cookie(request, SESSION_COOKIE));
    return session && { id: session.userId, name: session.name, email: session.email };
  }

  signInUrl(returnTo: string): string {
    return `/admin/login?next=${encodeURIComponent(returnTo)}`;
  }

  /** Deciders: APPROVAL_ROLES in the workspace; tasks: its admins. */
  async tenantsWhere(userId: string, purpose: 'approve' | 'tasks'): Promise<string[]> {
    const roles: Role[] = purpose === 'approve' ? this.approvals.deciderRoles : [TASK_ADMIN_ROLE];
    const memberships = await this.prisma.db.membership.findMany({ where: { userId, role: { in: roles } }, select: { workspaceId: true } });
    return memberships.map((m) => m.workspaceId);
  }

  async people(ids: string[]): Promise<ReadonlyMap<string, { name: string; email: string }>> {
    const users = await this.prisma.db.user.findMany({ where: { id: { in: ids.filter((id) => TOKEN_ID.test(id)) } } });
    return new Map(users.map((u) => [u.id, { name: u.name, email: u.email }]));
  }

  async tenants(ids: string[]): Promise<ReadonlyMap<string, { name: string; slug: string }>> {
    const workspaces = await this.prisma.db.workspace.findMany({ where: { id: { in: ids.filter((id) => TOKEN_ID.test(id)) } } });
    return new Map(workspaces.map((w) => [w.id, { name: w.name, slug: w.slug }]));
  }

  /**
   * The personal access tokens the calls came with, by id: "token “label”" (the label its owner or
   * an operator gave it), else its display prefix. What the page names beside the client's own
   * name, and instead of it when the client gave none (a 2025-era client without a session).
   */
  async credentials(ids: string[]): Promise<ReadonlyMap<string, string>> {
    const tokenIds = ids.filter((id) => TOKEN_ID.test(id));
    if (!tokenIds.length) return new Map();
    const tokens = await this.prisma.db.accessToken.findMany({
      where: { id: { in: tokenIds } },
      select: { id: true, label: true, prefix: true },
    });
    return new Map(tokens.map((token) => [token.id, token.label ? `token “${token.label}”` : `token ${token.prefix}…`]));
  }

  /** The request's principal in the workspace it acts in; none (no workspace resolved): a 400 asking for workspace_id. */
  private requester(): McpAdminRequester | undefined {
    const { principal, workspace } = RequestContext.require();
    if (!principal || !workspace) return undefined;
    return { tenantId: workspace.id, personId: principal.userId, credentialId: principal.tokenId };
  }

  /** The tool runs as the approver, in the approval's workspace, with what their role allows. */
  private async actAs(person: McpAdminPerson, approval: ApprovalView, request: Request): Promise<void> {
    const user = await this.prisma.db.user.findUniqueOrThrow({
      where: { id: person.id },
      include: { memberships: { include: { workspace: true } } },
    });
    const principal: Principal = {
      userId: person.id,
      email: user.email,
      tokenId: `panel:approval:${approval.id}`,
      kind: 'panel',
      onBehalfOf: approval.requestedBy.id,
      surfaces: [],
      // Every scope the application declares (a new module's too): what the person may do is their role's.
      scopes: declaredScopes(this.roles),
      workspaceId: approval.workspace.id,
      memberships: user.memberships.map((m) => ({ workspaceId: m.workspaceId, slug: m.workspace.slug, role: m.role })),
    };
    setPrincipal(request, principal);
    const state = RequestContext.current();
    if (state) state.principal = principal;
  }
}
