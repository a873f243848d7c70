import { Global, Module } from '@nestjs/common';
import { MCP_APPROVAL_GATEWAY } from '../mcp/index.js';
import { PrismaApprovalGateway } from './approval.gateway.js';
import { ApprovalsController } from './approvals.controller.js';
import { ApprovalService } from './approval.service.js';
import { APPROVALS_CONFIG, approvalsConfigFromEnv } from './approvals.config.js';

/**
 * Approval links for destructive MCP calls (SPEC §4): the gateway the MCP layer asks, and the
 * service the admin pages use to show and decide. Global so the layer finds the gateway.
 */
@Global()
@Module({
  controllers: [ApprovalsController],
  providers: [
    { provide: APPROVALS_CONFIG, useFactory: () => approvalsConfigFromEnv() },
    PrismaApprovalGateway,
    { provide: MCP_APPROVAL_GATEWAY, useExisting: PrismaApprovalGateway },
    ApprovalService,
  ],
  exports: [MCP_APPROVAL_GATEWAY, ApprovalService],
})
export class ApprovalsModule {}
