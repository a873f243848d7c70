import { Module } from '@nestjs/common';
import { AttachmentsModule } from './attachments/attachments.module.js';
import { CollectionsFollowupPrompt } from './customers/collections-followup.prompt.js';
import { CustomerSummaryService } from './customers/customer-summary.service.js';
import { CustomersController } from './customers/customers.controller.js';
import { CustomersService } from './customers/customers.service.js';
import { InvoicesModule } from './invoices/invoices.module.js';
import { JobsModule } from './jobs/jobs.module.js';
import { PaymentsModule } from './payments/payments.module.js';
import { StatementsModule } from './statements/statements.module.js';

/** The example enterprise domain: customers, invoices, payments, attachments, period statements, and the jobs that export them. */
@Module({
  imports: [InvoicesModule, PaymentsModule, AttachmentsModule, StatementsModule, JobsModule],
  controllers: [CustomersController],
  providers: [CustomersService, CustomerSummaryService, CollectionsFollowupPrompt],
  exports: [CustomersService],
})
export class BillingModule {}
