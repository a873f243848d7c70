var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Controller, Get, Inject, NotFoundException, Param, ParseUUIDPipe, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { currentWorkspaceId } from '../billing/common/current-workspace.js';
import { IDENTITY_CONFIG } from '../identity/identity.config.js';
import { principalOf } from '../identity/request-principal.js';
import { SCOPES } from '../identity/roles.js';
import { WorkspaceScoped } from '../identity/workspace-scoped.decorator.js';
import { McpTool, RequiredScopes } from '../mcp/index.js';
import { ApprovalIdDto, ApprovalStatusDto } from './approval-status.dto.js';
import { approvalUrl } from './approval-url.js';
import { ApprovalService } from './approval.service.js';
/**
 * The caller's own approvals, by id: the other way (besides an identical call) to learn an outcome.
 * A read like any other: it needs the read scope and answers only in the workspace the request
 * acts in (an approval of another workspace is not found, even for its requester).
 */
let ApprovalsController = class ApprovalsController {
    approvals;
    identity;
    constructor(approvals, identity) {
        this.approvals = approvals;
        this.identity = identity;
    }
    async status(id, request) {
        const approval = await this.approvals.ownStatus(id, principalOf(request).userId, currentWorkspaceId());
        if (!approval) {
            throw new NotFoundException({ code: 'not_found', message: `Approval ${id} was not found among the approvals you requested in this workspace.` });
        }
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
};
__decorate([
    Get(':approval_id'),
    RequiredScopes(SCOPES.billingRead),
    ApiOkResponse({ type: ApprovalStatusDto }),
    McpTool({
        name: 'approval_status',
        title: 'Check an approval',
        description: 'When to use: a destructive call answered pending_confirmation and you want to know whether a person decided. ' +
            'Never use for: approving (only a person can, on the approval page). Side effects: none. ' +
            "Success criteria: status tells the outcome; when executed or failed, result is the tool's answer. " +
            'Fallback: not_found means the id is wrong, the approval was requested by someone else, or in another workspace ' +
            '(pass the workspace_id it was requested in).',
        annotations: { readOnlyHint: true, idempotentHint: true },
        input: ApprovalIdDto,
        output: ApprovalStatusDto,
    }),
    __param(0, Param('approval_id', ParseUUIDPipe)),
    __param(1, Req()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object]),
    __metadata("design:returntype", Promise)
], ApprovalsController.prototype, "status", null);
ApprovalsController = __decorate([
    ApiTags('approvals'),
    ApiBearerAuth('bearer'),
    WorkspaceScoped(),
    Controller('v1/approvals'),
    __param(1, Inject(IDENTITY_CONFIG)),
    __metadata("design:paramtypes", [ApprovalService, Object])
], ApprovalsController);
export { ApprovalsController };
//# sourceMappingURL=approvals.controller.js.map