import type { CallToolResult } from '@modelcontextprotocol/server';
import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { McpDispatcher, McpRegistry, personFacingSummary } from '@nest-mcp/core/extensions';
import { McpAuditLog, McpChannel, McpDatabase, redactArguments, type AuditOutcome, type AuditRecord } from '@nest-mcp/prisma';
import { sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { MCP_ADMIN_OPTIONS, type McpAdminPerson, type ResolvedMcpAdminOptions } from '../options/mcp-admin.options.js';
import { APPROVAL_COLUMNS, approvalUrl, UUID, utc, type ApprovalRow } from './approval-row.js';
import type { ApprovalView, DecisionOutcome } from '../options/approval.view.js';

/** Thrown inside the decision transaction to roll it back: someone else decided first. */
class LostRace extends Error {}

/**
 * What the approval pages do: list and show approvals to the people who may decide, and carry
 * out a decision once. Continue runs the tool in-process, through the same MCP pipeline as the
 * agent's call (validation, guards, business rules, audit), acting as the person who approved
 * (the `actAs` option), in one transaction with the approval's change of status: two clicks, two
 * tabs or two replicas cannot run it twice, because only one conditional update from `pending`
 * succeeds. `ownStatus` serves an application's own status tool.
 */
@Injectable()
export class McpApprovals {
  constructor(
    private readonly database: McpDatabase,
    private readonly audit: McpAuditLog,
    private readonly registry: McpRegistry,
    private readonly dispatcher: McpDispatcher,
    @Inject(MCP_ADMIN_OPTIONS) private readonly options: ResolvedMcpAdminOptions,
  ) {}

  /** Pending, unexpired approvals in the tenants where `personId` may decide, newest first. */
  async listPending(personId: string): Promise<ApprovalView[]> {
    const tenants = await this.options.directory.tenantsWhere(personId, 'approve');
    if (!tenants.length) return [];
    const { rows } = await this.database.sql<ApprovalRow>(sql`
      SELECT ${APPROVAL_COLUMNS} FROM mcp_approvals
      WHERE status = 'pending' AND expires_at > ${utc(new Date())}::timestamp AND workspace_id = ANY(${tenants}::text[])
      ORDER BY created_at DESC LIMIT 200`);
    return this.views(rows);
  }

  /** One approval, or undefined for an unknown id and for a tenant where `personId` may not decide. */
  async find(id: string, personId: string): Promise<ApprovalView | undefined> {
    const row = await this.row(id, personId);
    return row ? (await this.views([row]))[0] : undefined;
  }

  /**
   * An approval `personId` requested in `tenantId` (for the requester, whatever their role), or
   * undefined: what an application's own status tool answers its caller.
   */
  async ownStatus(id: string, personId: string, tenantId: string): Promise<ApprovalView | undefined> {
    if (!UUID.test(id)) return undefined;
    const row = await this.select(sql`id = ${id.toLowerCase()}::uuid AND requested_by_id = ${personId} AND workspace_id = ${tenantId}`);
    return row ? this.view(row) : undefined;
  }

  /** The page where a person decides an approval (absolute, on the public URL). */
  url(id: string): string {
    return approvalUrl(this.options.publicUrl(), this.options.path, id);
  }

  /**
   * A person's Continue or Cancel, carried out at most once. Continue runs the call as `personId`
   * (the `actAs` option sets them on `request`), in the `channel` option's channel.
   */
  async decide(id: string, personId: string, decision: 'continue' | 'cancel', request: Request): Promise<DecisionOutcome> {
    const row = await this.row(id, personId);
    if (!row) return { kind: 'not_found' };
    if (row.status !== 'pending') return { kind: 'already_decided', approval: await this.view(row) };
    if (row.expires_ms <= Date.now()) return { kind: 'expired', approval: await this.view(row) };

    if (decision === 'cancel') {
      const denied = await McpChannel.run(this.options.channel, () =>
        this.database.transaction(async () => {
          const count = await this.claim(id, 'denied', personId);
          if (count) await this.audit.record(this.decisionEvent(row, personId, 'approval/cancel', 'success'));
          return count > 0;
        }),
      );
      return denied ? { kind: 'denied', approval: await this.reload(row) } : this.afterLostRace(row);
    }

    const approval = await this.view(row);
    const known = (await this.options.directory.people([personId])).get(personId);
    const person: McpAdminPerson = { id: personId, name: known?.name ?? 'unknown', ...(known?.email ? { email: known.email } : {}) };
    await this.options.actAs(person, approval, request);
    try {
      const executed = await McpChannel.run(this.options.channel, () =>
        this.database.transaction(async () => {
          if (!(await this.claim(id, 'executed', personId))) throw new LostRace();
          // A refusal by the tool (a business rule, a stale argument) rolls back only the tool's own
          // writes (the call hook runs it in a savepoint); the refusal is then the recorded outcome.
          const result = await this.run(row, request);
          await this.database.sql(sql`
            UPDATE mcp_approvals SET status = ${result.isError ? 'failed' : 'executed'}, result = ${JSON.stringify(result)}::jsonb,
              updated_at = ${utc(new Date())}::timestamp
            WHERE id = ${id}::uuid`);
          await this.audit.record(this.decisionEvent(row, personId, 'approval/continue', result.isError ? 'failed' : 'success'));
          return !result.isError;
        }),
      );
      return { kind: executed ? 'executed' : 'failed', approval: await this.reload(row) };
    } catch (failure) {
      if (failure instanceof LostRace) return this.afterLostRace(row);
      throw failure;
    }
  }

  /** The one conditional update from `pending` (unexpired): 1 for the decision that wins, 0 for any other. */
  private async claim(id: string, status: 'executed' | 'denied', personId: string): Promise<number> {
    const now = utc(new Date());
    const { rowCount } = await this.database.sql(sql`
      UPDATE mcp_approvals SET status = ${status}, decided_by_id = ${personId}, decided_at = ${now}::timestamp, updated_at = ${now}::timestamp
      WHERE id = ${id}::uuid AND status = 'pending' AND expires_at > ${now}::timestamp`);
    return rowCount;
  }

  /**
   * The agent's call, replayed in-process through the MCP pipeline as the approver (see `actAs`),
   * in the pages' channel (`McpChannel.run`, set by the caller): its rows and audit row say a
   * person's decision on the admin pages ran it.
   */
  private run(row: ApprovalRow, request: Request): Promise<CallToolResult> {
    return this.dispatcher.runApprovedCall({
      tool: row.tool,
      arguments: row.arguments,
      approvalId: row.id,
      actingRequest: request,
      ...(row.client_name ? { clientInfo: { name: row.client_name, version: row.client_version ?? '' } } : {}),
    });
  }

  private async afterLostRace(row: ApprovalRow): Promise<DecisionOutcome> {
    const approval = await this.reload(row);
    return approval.status === 'expired' ? { kind: 'expired', approval } : { kind: 'already_decided', approval };
  }

  private decisionEvent(row: ApprovalRow, personId: string, method: string, outcome: AuditOutcome): AuditRecord {
    return {
      workspaceId: row.workspace_id,
      userId: personId,
      tokenId: `panel:approval:${row.id}`,
      clientName: row.client_name ?? undefined,
      clientVersion: row.client_version ?? undefined,
      method,
      target: row.tool,
      arguments: { approval_id: row.id, requested_by_id: row.requested_by_id, arguments: redactArguments(row.arguments) },
      outcome,
      durationMs: 0,
    };
  }

  private async select(where: Sql): Promise<ApprovalRow | undefined> {
    const {
      rows: [row],
    } = await this.database.sql<ApprovalRow>(sql`SELECT ${APPROVAL_COLUMNS} FROM mcp_approvals WHERE ${where}`);
    return row;
  }

  private async row(id: string, personId: string): Promise<ApprovalRow | undefined> {
    if (!UUID.test(id)) return undefined;
    const row = await this.select(sql`id = ${id.toLowerCase()}::uuid`);
    if (!row || !(await this.options.directory.tenantsWhere(personId, 'approve')).includes(row.workspace_id)) return undefined;
    return row;
  }

  private async reload(row: ApprovalRow): Promise<ApprovalView> {
    const fresh = await this.select(sql`id = ${row.id}::uuid`);
    return this.view(fresh ?? row);
  }

  private async view(row: ApprovalRow): Promise<ApprovalView> {
    return (await this.views([row]))[0];
  }

  private async views(rows: ApprovalRow[]): Promise<ApprovalView[]> {
    const { directory } = this.options;
    const personIds = [...new Set(rows.flatMap((r) => [r.requested_by_id, r.decided_by_id].filter((x): x is string => !!x)))];
    const tenantIds = [...new Set(rows.map((r) => r.workspace_id))];
    const credentialIds = [...new Set(rows.map((r) => r.requested_by_token_id))];
    const [people, tenants, credentials] = await Promise.all([
      personIds.length ? directory.people(personIds) : new Map<string, { name: string; email?: string }>(),
      tenantIds.length ? directory.tenants(tenantIds) : new Map<string, { name: string; slug?: string }>(),
      directory.credentials && credentialIds.length ? directory.credentials(credentialIds) : new Map<string, string>(),
    ]);
    const person = (id: string) => {
      const known = people.get(id);
      return { id, name: known?.name ?? 'unknown', email: known ? known.email : 'unknown' };
    };
    return rows.map((row) => {
      const tool = this.registry.tool(row.tool)?.definition;
      const expired = row.status === 'pending' && row.expires_ms <= Date.now();
      const tenant = tenants.get(row.workspace_id);
      const credential = credentials.get(row.requested_by_token_id);
      return {
        id: row.id,
        workspace: { id: row.workspace_id, name: tenant?.name ?? row.workspace_id, ...(tenant?.slug ? { slug: tenant.slug } : {}) },
        tool: { name: row.tool, title: tool?.title ?? row.tool, summary: personFacingSummary(tool?.description) },
        arguments: redactArguments(row.arguments) as Record<string, unknown>,
        client: {
          ...(row.client_name ? { name: row.client_name } : {}),
          ...(row.client_version ? { version: row.client_version } : {}),
          ...(credential ? { credential } : {}),
        },
        requestedBy: person(row.requested_by_id),
        status: expired ? 'expired' : row.status,
        createdAt: new Date(row.created_ms),
        expiresAt: new Date(row.expires_ms),
        ...(row.decided_by_id ? { decidedBy: person(row.decided_by_id) } : {}),
        ...(row.decided_ms !== null ? { decidedAt: new Date(row.decided_ms) } : {}),
        ...(row.result ? { result: envelopeOf(row.result as CallToolResult) } : {}),
      };
    });
  }
}

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
