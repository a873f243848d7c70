import { Controller, Get, NotFoundException, Param, ParseUUIDPipe, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { currentWorkspaceId } from '../identity/current-workspace.js';
import { principalOf } from '../identity/request-principal.js';
import { SCOPES } from '../app.scopes.js';
import { WorkspaceScoped } from '../identity/workspace-scoped.decorator.js';
import { McpTool, namedArgumentPipe, RequiredScopes } from '@nest-mcp/core';
import { McpApprovals } from '@nest-mcp/admin';
import { ApprovalIdDto, ApprovalStatusDto } from './approval-status.dto.js';

/**
 * The caller's own approvals, by id: the other way (besides an identical call) to learn an outcome.
 * A read like any other: it needs the read scope and answers only in the workspace the request
 * acts in (an approval of another workspace is not found, even for its requester).
 */
@ApiTags('approvals')
@ApiBearerAuth('bearer')
@WorkspaceScoped()
@Controller('v1/approvals')
export class ApprovalsController {
  constructor(private readonly approvals: McpApprovals) {}

  @Get(':approval_id')
  @RequiredScopes(SCOPES.billingRead)
  @ApiOkResponse({ type: ApprovalStatusDto })
  @McpTool({
    name: 'approval_status',
    title: 'Check an approval',
    description:
      'When to use: a destructive call answered pending_confirmation and you want to know whether a person decided. ' +
      'Never use for: approving (only a person can, on the approval page). Side effects: none. ' +
      "Success criteria: status tells the outcome; when executed or failed, result is the tool's answer. " +
      'Fallback: not_found means the id is wrong, the approval was requested by someone else, or in another workspace ' +
      '(pass the workspace_id it was requested in).',
    annotations: { readOnlyHint: true, idempotentHint: true },
    input: ApprovalIdDto,
    output: ApprovalStatusDto,
  })
  async status(@Param('approval_id', namedArgumentPipe(ParseUUIDPipe)) id: string, @Req() request: Request): Promise<ApprovalStatusDto> {
    const approval = await this.approvals.ownStatus(id, principalOf(request)!.userId, currentWorkspaceId());
    if (!approval) {
      throw new NotFoundException({
        code: 'not_found',
        message: `Approval ${id} was not found among the approvals you requested in this workspace.`,
      });
    }
    return {
      id: approval.id,
      tool: approval.tool.name,
      status: approval.status,
      ...(approval.status === 'pending' ? { url: this.approvals.url(approval.id) } : {}),
      expires_at: approval.expiresAt.toISOString(),
      ...(approval.decidedAt ? { decided_at: approval.decidedAt.toISOString() } : {}),
      ...(approval.result !== undefined ? { result: approval.result } : {}),
    };
  }
}
