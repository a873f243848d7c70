import { Module } from '@nestjs/common';
import { ApprovalsController } from './approvals.controller.js';
import { BILLING_APPROVAL_DESCRIBERS } from './billing-approval-describers.js';

/**
 * Approval links for destructive MCP calls (docs/contract.md §4.3) come from @nest-mcp/admin
 * (`mcpAdminExtensions()` in app.module.ts, the pages in panel.module.ts). Here: the caller's own
 * `approval_status` tool, and billing's describers of the ids of an approval's arguments
 * (`ApprovalDescriber` providers of any module are found at boot).
 */
@Module({
  controllers: [ApprovalsController],
  providers: [...BILLING_APPROVAL_DESCRIBERS],
})
export class ApprovalsModule {}
