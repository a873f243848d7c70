import type { CallToolResult } from '@modelcontextprotocol/server';
import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { McpAuditLog, McpChannel, redactArguments, type AuditOutcome } from '@nest-mcp/prisma';
import { RequestContext } from '../context/request-context.js';
import { PrismaService } from '../database/prisma.service.js';
import type { Approval, Prisma, User, Workspace } from '../generated/prisma/client.js';
import type { Principal } from '../identity/principal.js';
import { setPrincipal } from '../identity/request-principal.js';
import { declaredScopes, ROLE_SCOPES, type RoleScopes } from '../identity/role-scopes.js';
import { McpDispatcher, McpRegistry, personFacingSummary } from '@nest-mcp/core';
import { APPROVALS_CONFIG, type ApprovalsConfig } from './approvals.config.js';
import type { ApprovalView, DecisionOutcome } from './approval.view.js';

type ApprovalRow = Approval & { workspace: Workspace };

/** Thrown inside the decision transaction to roll it back: someone else decided first. */
class LostRace extends Error {}

/**
 * What the approval pages do: list and show approvals to the people who may decide, and carry
 * out a decision once. Continue runs the tool in-process, through the same MCP pipeline as the
 * agent's call (validation, guards, business rules, audit), acting as the person who approved, in
 * one transaction with the approval's change of status: two clicks, two tabs or two replicas
 * cannot run it twice, because only one conditional update from `pending` succeeds.
 */
@Injectable()
export class ApprovalService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: McpAuditLog,
    private readonly registry: McpRegistry,
    private readonly dispatcher: McpDispatcher,
    @Inject(APPROVALS_CONFIG) private readonly config: ApprovalsConfig,
    @Inject(ROLE_SCOPES) private readonly roles: RoleScopes,
  ) {}

  /** Pending, unexpired approvals in the workspaces where `userId` may decide, newest first. */
  async listPending(userId: string): Promise<ApprovalView[]> {
    const rows = await this.prisma.db.approval.findMany({
      where: { status: 'pending', expiresAt: { gt: new Date() }, workspaceId: { in: await this.decidableWorkspaces(userId) } },
      include: { workspace: true },
      orderBy: { createdAt: 'desc' },
      take: 200,
    });
    return this.views(rows);
  }

  /** One approval, or undefined for an unknown id and for a workspace where `userId` may not decide. */
  async find(id: string, userId: string): Promise<ApprovalView | undefined> {
    const row = await this.row(id, userId);
    return row ? (await this.views([row]))[0] : undefined;
  }

  /** An approval `userId` requested in `workspaceId` (for the requester, whatever their role), or undefined. */
  async ownStatus(id: string, userId: string, workspaceId: string): Promise<ApprovalView | undefined> {
    const row = await this.prisma.db.approval.findFirst({
      where: { id, requestedById: userId, workspaceId },
      include: { workspace: true },
    });
    return row ? this.view(row) : undefined;
  }

  async decide(id: string, userId: string, decision: 'continue' | 'cancel', request: Request): Promise<DecisionOutcome> {
    const row = await this.row(id, userId);
    if (!row) return { kind: 'not_found' };
    if (row.status !== 'pending') return { kind: 'already_decided', approval: await this.view(row) };
    if (row.expiresAt.getTime() <= Date.now()) return { kind: 'expired', approval: await this.view(row) };
    const decided = { decidedById: userId, decidedAt: new Date() };

    if (decision === 'cancel') {
      const denied = await this.prisma.transaction(async (tx) => {
        const { count } = await tx.approval.updateMany({ where: this.stillPending(id), data: { status: 'denied', ...decided } });
        if (count) await this.audit.record(this.decisionEvent(row, userId, 'approval/cancel', 'success'));
        return count > 0;
      });
      return denied ? { kind: 'denied', approval: await this.reload(row) } : this.afterLostRace(row);
    }

    await this.actAs(userId, row, request);
    try {
      const executed = await this.prisma.transaction(async (tx) => {
        const { count } = await tx.approval.updateMany({ where: this.stillPending(id), data: { status: 'executed', ...decided } });
        if (!count) throw new LostRace();
        // A refusal by the tool (a business rule, a stale argument) rolls back only the tool's own
        // writes (the call hook runs it in a savepoint); the refusal is then the recorded outcome.
        const result = await this.run(row, request);
        await tx.approval.update({
          where: { id },
          data: { status: result.isError ? 'failed' : 'executed', result: result as unknown as Prisma.InputJsonValue },
        });
        await this.audit.record(this.decisionEvent(row, userId, 'approval/continue', result.isError ? 'failed' : 'success'));
        return !result.isError;
      });
      return { kind: executed ? 'executed' : 'failed', approval: await this.reload(row) };
    } catch (failure) {
      if (failure instanceof LostRace) return this.afterLostRace(row);
      throw failure;
    }
  }

  /**
   * The agent's call, replayed in-process through the MCP pipeline as the approver (see `actAs`),
   * in the `panel` channel: its rows and audit row say a person's decision on the admin pages ran it.
   */
  private run(row: ApprovalRow, request: Request): Promise<CallToolResult> {
    return McpChannel.run('panel', () =>
      this.dispatcher.runApprovedCall({
        tool: row.tool,
        arguments: row.arguments as Record<string, unknown>,
        approvalId: row.id,
        actingRequest: request,
        ...(row.clientName ? { clientInfo: { name: row.clientName, version: row.clientVersion ?? '' } } : {}),
      }),
    );
  }

  /** The tool runs as the approver, in the approval's workspace, with what their role allows. */
  private async actAs(userId: string, row: ApprovalRow, request: Request): Promise<void> {
    const user = await this.prisma.db.user.findUniqueOrThrow({
      where: { id: userId },
      include: { memberships: { include: { workspace: true } } },
    });
    const principal: Principal = {
      userId,
      email: user.email,
      tokenId: `panel:approval:${row.id}`,
      kind: 'panel',
      onBehalfOf: row.requestedById,
      surfaces: [],
      // Every scope the application declares (a new module's too): what the person may do is their role's.
      scopes: declaredScopes(this.roles),
      workspaceId: row.workspaceId,
      memberships: user.memberships.map((m) => ({ workspaceId: m.workspaceId, slug: m.workspace.slug, role: m.role })),
    };
    setPrincipal(request, principal);
    const state = RequestContext.current();
    if (state) state.principal = principal;
  }

  private stillPending(id: string): Prisma.ApprovalWhereInput {
    return { id, status: 'pending', expiresAt: { gt: new Date() } };
  }

  private async afterLostRace(row: ApprovalRow): Promise<DecisionOutcome> {
    const approval = await this.reload(row);
    return approval.status === 'expired' ? { kind: 'expired', approval } : { kind: 'already_decided', approval };
  }

  private decisionEvent(row: ApprovalRow, userId: string, method: string, outcome: AuditOutcome) {
    return {
      workspaceId: row.workspaceId,
      userId,
      tokenId: `panel:approval:${row.id}`,
      clientName: row.clientName ?? undefined,
      clientVersion: row.clientVersion ?? undefined,
      method,
      target: row.tool,
      arguments: { approval_id: row.id, requested_by_id: row.requestedById, arguments: redactArguments(row.arguments) },
      outcome,
      durationMs: 0,
    };
  }

  private async row(id: string, userId: string): Promise<ApprovalRow | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const row = await this.prisma.db.approval.findUnique({ where: { id }, include: { workspace: true } });
    if (!row || !(await this.decidableWorkspaces(userId)).includes(row.workspaceId)) return undefined;
    return row;
  }

  private async decidableWorkspaces(userId: string): Promise<string[]> {
    const memberships = await this.prisma.db.membership.findMany({ where: { userId, role: { in: this.config.deciderRoles } } });
    return memberships.map((m) => m.workspaceId);
  }

  private async reload(row: ApprovalRow): Promise<ApprovalView> {
    const fresh = await this.prisma.db.approval.findUniqueOrThrow({ where: { id: row.id }, include: { workspace: true } });
    return this.view(fresh);
  }

  private async view(row: ApprovalRow): Promise<ApprovalView> {
    return (await this.views([row]))[0];
  }

  /**
   * The personal access tokens the calls came with, by id: "token “label”" (the label its owner or
   * an operator gave it), else its display prefix. What the page names beside the client's own
   * name, and instead of it when the client gave none (a 2025-era client without a session).
   */
  private async credentials(rows: ApprovalRow[]): Promise<Map<string, string>> {
    const ids = [...new Set(rows.map((r) => r.requestedByTokenId).filter((id) => TOKEN_ID.test(id)))];
    if (!ids.length) return new Map();
    const tokens = await this.prisma.db.accessToken.findMany({
      where: { id: { in: ids } },
      select: { id: true, label: true, prefix: true },
    });
    return new Map(tokens.map((token) => [token.id, token.label ? `token “${token.label}”` : `token ${token.prefix}…`]));
  }

  private async views(rows: ApprovalRow[]): Promise<ApprovalView[]> {
    const ids = [...new Set(rows.flatMap((r) => [r.requestedById, r.decidedById].filter((x): x is string => !!x)))];
    const users = new Map<string, User>((await this.prisma.db.user.findMany({ where: { id: { in: ids } } })).map((u) => [u.id, u]));
    const credentials = await this.credentials(rows);
    const person = (id: string) => {
      const user = users.get(id);
      return { id, email: user?.email ?? 'unknown', name: user?.name ?? 'unknown' };
    };
    return rows.map((row) => {
      const tool = this.registry.tool(row.tool)?.definition;
      const expired = row.status === 'pending' && row.expiresAt.getTime() <= Date.now();
      return {
        id: row.id,
        workspace: { id: row.workspace.id, slug: row.workspace.slug, name: row.workspace.name },
        tool: { name: row.tool, title: tool?.title ?? row.tool, summary: personFacingSummary(tool?.description) },
        arguments: redactArguments(row.arguments) as Record<string, unknown>,
        client: {
          ...(row.clientName ? { name: row.clientName } : {}),
          ...(row.clientVersion ? { version: row.clientVersion } : {}),
          ...(credentials.has(row.requestedByTokenId) ? { credential: credentials.get(row.requestedByTokenId) } : {}),
        },
        requestedBy: person(row.requestedById),
        status: expired ? 'expired' : row.status,
        createdAt: row.createdAt,
        expiresAt: row.expiresAt,
        ...(row.decidedById ? { decidedBy: person(row.decidedById) } : {}),
        ...(row.decidedAt ? { decidedAt: row.decidedAt } : {}),
        ...(row.result ? { result: envelopeOf(row.result as unknown as CallToolResult) } : {}),
      };
    });
  }
}

/** Personal access token ids are UUIDs; other credentials (a JWT's `iss#jti`, …) have no row to name them. */
const TOKEN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The JSON envelope inside a tool result, for display. */
function envelopeOf(result: CallToolResult): unknown {
  if (result.structuredContent) return result.structuredContent;
  const text = result.content?.find((block) => block.type === 'text');
  try {
    return text && text.type === 'text' ? JSON.parse(text.text) : result;
  } catch {
    return text && text.type === 'text' ? text.text : result;
  }
}
