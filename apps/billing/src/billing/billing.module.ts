import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { McpSkill } from '@nest-mcp/core';
import { AttachmentsModule } from './attachments/attachments.module.js';
import { CollectionsFollowupPrompt } from './customers/collections-followup.prompt.js';
import { CustomerSummaryService } from './customers/customer-summary.service.js';
import { CustomersController } from './customers/customers.controller.js';
import { CustomersService } from './customers/customers.service.js';
import { InvoicesModule } from './invoices/invoices.module.js';
import { JobsModule } from './jobs/jobs.module.js';
import { PaymentsModule } from './payments/payments.module.js';
import { StatementsModule } from './statements/statements.module.js';
import { STATEMENT_EXPORT_TOOL } from './statements/statements.controller.js';

/**
 * The example enterprise domain: customers, invoices, payments, attachments, period statements, and the jobs that export them.
 * Its skill (skills/month-end-close, packages/nest-mcp/docs/skills.md) teaches an agent the month-end close across these
 * tools; a caller sees it only when their role allows every one of them (an accountant or an admin, not a viewer).
 */
@McpSkill({
  directory: join(import.meta.dirname, 'skills', 'month-end-close'),
  tools: ['billing_invoices_search', 'billing_customer_summary', 'billing_payment_register', STATEMENT_EXPORT_TOOL, 'billing_job_get'],
})
@Module({
  imports: [InvoicesModule, PaymentsModule, AttachmentsModule, StatementsModule, JobsModule],
  controllers: [CustomersController],
  providers: [CustomersService, CustomerSummaryService, CollectionsFollowupPrompt],
  exports: [CustomersService],
})
export class BillingModule {}
