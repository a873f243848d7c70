import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '../context/request-context.js';
import { PrismaService } from '../database/prisma.service.js';
import type { Prisma } from '../generated/prisma/client.js';
import { IDENTITY_CONFIG, type IdentityConfig } from '../identity/identity.config.js';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ApprovalOutcome, ApprovalRequest, McpApprovalLinks } from '@nest-mcp/core';
import { approvalUrl } from './approval-url.js';
import { APPROVALS_CONFIG, type ApprovalsConfig } from './approvals.config.js';

/**
 * Approval links for destructive MCP calls from clients that cannot confirm in the chat (docs/contract.md §4.3).
 * An approval is bound to the exact call: workspace, requester, tool and arguments hash. An
 * identical call answers the latest approval's outcome while it is fresh (pending, denied,
 * expired, or the stored result); after that window, it asks again. It never runs the tool: a
 * person's Continue does (`ApprovalService.decide`).
 */
@Injectable()
export class PrismaApprovalLinks implements McpApprovalLinks {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(APPROVALS_CONFIG) private readonly config: ApprovalsConfig,
    @Inject(IDENTITY_CONFIG) private readonly identity: IdentityConfig,
  ) {}

  async request({ tool, invocation }: ApprovalRequest): Promise<ApprovalOutcome> {
    const { principal, workspace } = RequestContext.require();
    if (!principal || !workspace) {
      throw new BadRequestException(`${tool.name} needs a workspace to ask for approval in. Pass workspace_id and call again.`);
    }
    const argumentsHash = invocation.argumentsHash!;
    const now = Date.now();
    const latest = await this.prisma.db.approval.findFirst({
      where: { workspaceId: workspace.id, requestedById: principal.userId, tool: tool.name, argumentsHash },
      orderBy: { createdAt: 'desc' },
    });
    if (latest) {
      const approvalId = latest.id;
      const decidedAt = latest.decidedAt?.getTime() ?? 0;
      const fresh = (at: number) => now - at < this.config.ttlMs;
      if (latest.status === 'pending' && latest.expiresAt.getTime() > now) {
        return { status: 'pending', approvalId, url: this.url(approvalId), expiresAt: latest.expiresAt };
      }
      if (latest.status === 'pending' && fresh(latest.expiresAt.getTime())) return { status: 'expired', approvalId };
      if (latest.status === 'denied' && fresh(decidedAt)) return { status: 'denied', approvalId };
      if ((latest.status === 'executed' || latest.status === 'failed') && fresh(decidedAt) && latest.result) {
        return { status: 'completed', approvalId, result: latest.result as unknown as CallToolResult };
      }
    }
    const created = await this.prisma.db.approval.create({
      data: {
        workspaceId: workspace.id,
        requestedById: principal.userId,
        requestedByTokenId: principal.tokenId,
        clientName: invocation.clientInfo?.name,
        clientVersion: invocation.clientInfo?.version,
        tool: tool.name,
        arguments: (invocation.arguments ?? {}) as Prisma.InputJsonValue,
        argumentsHash,
        expiresAt: new Date(now + this.config.ttlMs),
        // created_via / updated_via are stamped from the request context.
      },
    });
    return { status: 'pending', approvalId: created.id, url: this.url(created.id), expiresAt: created.expiresAt };
  }

  private url(id: string): string {
    return approvalUrl(id, this.identity.publicUrl);
  }
}
