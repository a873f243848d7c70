import { randomUUID } from 'node:crypto';
import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ApprovalOutcome, ApprovalRequest, McpApprovalLinks } from '@nest-mcp/core/extensions';
import { McpDatabase } from '@nest-mcp/prisma';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { MCP_ADMIN_OPTIONS, type ResolvedMcpAdminOptions } from '../options/mcp-admin.options.js';
import { APPROVAL_COLUMNS, approvalUrl, utc, type ApprovalRow } from './approval-row.js';

/**
 * The layer's `approvalLinks` (`mcpAdminExtensions()`): approval links for destructive MCP calls
 * from clients that cannot confirm in the chat. An approval is bound to the exact call: tenant,
 * requester, tool and arguments hash. An identical call answers the latest approval's outcome
 * while it is fresh (pending, denied, expired, or the stored result); after that window, it asks
 * again. It never runs the tool: a person's Continue does (`McpApprovals.decide`).
 */
@Injectable()
export class McpAdminApprovalLinks implements McpApprovalLinks {
  constructor(
    private readonly database: McpDatabase,
    @Inject(MCP_ADMIN_OPTIONS) private readonly options: ResolvedMcpAdminOptions,
  ) {}

  async request({ tool, invocation }: ApprovalRequest): Promise<ApprovalOutcome> {
    const requester = await this.options.requester(invocation);
    if (!requester) {
      throw new BadRequestException(`${tool.name} ${this.options.missingTenant}`);
    }
    const argumentsHash = invocation.argumentsHash!;
    const now = Date.now();
    const ttl = this.options.approvalTtlMs;
    const {
      rows: [latest],
    } = await this.database.sql<ApprovalRow>(sql`
      SELECT ${APPROVAL_COLUMNS} FROM mcp_approvals
      WHERE workspace_id = ${requester.tenantId} AND requested_by_id = ${requester.personId}
        AND tool = ${tool.name} AND arguments_hash = ${argumentsHash}
      ORDER BY created_at DESC LIMIT 1`);
    if (latest) {
      const approvalId = latest.id;
      const decidedAt = latest.decided_ms ?? 0;
      const fresh = (at: number) => now - at < ttl;
      if (latest.status === 'pending' && latest.expires_ms > now) {
        return { status: 'pending', approvalId, url: this.url(approvalId), expiresAt: new Date(latest.expires_ms) };
      }
      if (latest.status === 'pending' && fresh(latest.expires_ms)) return { status: 'expired', approvalId };
      if (latest.status === 'denied' && fresh(decidedAt)) return { status: 'denied', approvalId };
      if ((latest.status === 'executed' || latest.status === 'failed') && fresh(decidedAt) && latest.result) {
        return { status: 'completed', approvalId, result: latest.result as CallToolResult };
      }
    }
    const id = randomUUID();
    const expiresAt = new Date(now + ttl);
    await this.database.sql(sql`
      INSERT INTO mcp_approvals (id, workspace_id, requested_by_id, requested_by_token_id, client_name, client_version,
                                 tool, arguments, arguments_hash, status, expires_at, created_at, updated_at)
      VALUES (${id}::uuid, ${requester.tenantId}, ${requester.personId}, ${requester.credentialId},
              ${invocation.clientInfo?.name ?? null}, ${invocation.clientInfo?.version ?? null}, ${tool.name},
              ${JSON.stringify(invocation.arguments ?? {})}::jsonb, ${argumentsHash}, 'pending',
              ${utc(expiresAt)}::timestamp, ${utc(new Date(now))}::timestamp, ${utc(new Date(now))}::timestamp)`);
    return { status: 'pending', approvalId: id, url: this.url(id), expiresAt };
  }

  private url(id: string): string {
    return approvalUrl(this.options.publicUrl(), this.options.path, id);
  }
}
