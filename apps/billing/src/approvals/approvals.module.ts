import { Module } from '@nestjs/common';
import { ApprovalsController } from './approvals.controller.js';
import { ApprovalService } from './approval.service.js';
import { PrismaApprovalLinks } from './prisma-approval-links.js';
import { BILLING_APPROVAL_DESCRIBERS } from './billing-approval-describers.js';

/**
 * Approval links for destructive MCP calls (docs/contract.md §4.3): the links the MCP layer asks for
 * (`PrismaApprovalLinks`, its `approvalLinks` option), and the service the admin pages use to
 * show and decide. The pages describe the ids of an approval's arguments with the
 * `ApprovalDescriber` providers of any module (approval-describer.ts); billing's own are here.
 */
@Module({
  controllers: [ApprovalsController],
  providers: [PrismaApprovalLinks, ApprovalService, ...BILLING_APPROVAL_DESCRIBERS],
  exports: [PrismaApprovalLinks, ApprovalService],
})
export class ApprovalsModule {}
