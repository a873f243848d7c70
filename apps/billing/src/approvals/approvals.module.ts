import { Module } from '@nestjs/common';
import { ApprovalsController } from './approvals.controller.js';
import { ApprovalService } from './approval.service.js';
import { APPROVALS_CONFIG, approvalsConfigFromEnv } from './approvals.config.js';
import { PrismaApprovalLinks } from './prisma-approval-links.js';

/**
 * Approval links for destructive MCP calls (docs/contract.md §4.3): the links the MCP layer asks for
 * (`PrismaApprovalLinks`, its `approvalLinks` option), and the service the admin pages use to
 * show and decide.
 */
@Module({
  controllers: [ApprovalsController],
  providers: [{ provide: APPROVALS_CONFIG, useFactory: () => approvalsConfigFromEnv() }, PrismaApprovalLinks, ApprovalService],
  exports: [PrismaApprovalLinks, ApprovalService],
})
export class ApprovalsModule {}
