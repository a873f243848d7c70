import { Controller, Get, Inject, NotFoundException, Param, ParseUUIDPipe, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { IDENTITY_CONFIG, type IdentityConfig } from '../identity/identity.config.js';
import { principalOf } from '../identity/request-principal.js';
import { McpTool } from '../mcp/index.js';
import { ApprovalIdDto, ApprovalStatusDto } from './approval-status.dto.js';
import { approvalUrl } from './approval-url.js';
import { ApprovalService } from './approval.service.js';

/** The caller's own approvals, by id: the other way (besides an identical call) to learn an outcome. */
@ApiTags('approvals')
@ApiBearerAuth('bearer')
@Controller('v1/approvals')
export class ApprovalsController {
  constructor(
    private readonly approvals: ApprovalService,
    @Inject(IDENTITY_CONFIG) private readonly identity: IdentityConfig,
  ) {}

  @Get(':approval_id')
  @ApiOkResponse({ type: ApprovalStatusDto })
  @McpTool({
    name: 'approval_status',
    title: 'Check an approval',
    description:
      'When to use: a destructive call answered pending_confirmation and you want to know whether a person decided. ' +
      'Never use for: approving (only a person can, on the approval page). Side effects: none. ' +
      "Success criteria: status tells the outcome; when executed or failed, result is the tool's answer. " +
      'Fallback: not_found means the id is wrong or the approval was requested by someone else.',
    annotations: { readOnlyHint: true, idempotentHint: true },
    input: ApprovalIdDto,
    output: ApprovalStatusDto,
  })
  async status(@Param('approval_id', ParseUUIDPipe) id: string, @Req() request: Request): Promise<ApprovalStatusDto> {
    const approval = await this.approvals.ownStatus(id, principalOf(request)!.userId);
    if (!approval) throw new NotFoundException({ code: 'not_found', message: `Approval ${id} was not found among the approvals you requested.` });
    return {
      id: approval.id,
      tool: approval.tool.name,
      status: approval.status,
      ...(approval.status === 'pending' ? { url: approvalUrl(approval.id, this.identity.publicUrl) } : {}),
      expires_at: approval.expiresAt.toISOString(),
      ...(approval.decidedAt ? { decided_at: approval.decidedAt.toISOString() } : {}),
      ...(approval.result !== undefined ? { result: approval.result } : {}),
    };
  }
}
