var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { AttachmentsModule } from './attachments/attachments.module.js';
import { CollectionsFollowupPrompt } from './customers/collections-followup.prompt.js';
import { CustomerSummaryService } from './customers/customer-summary.service.js';
import { CustomersController } from './customers/customers.controller.js';
import { CustomersService } from './customers/customers.service.js';
import { InvoicesModule } from './invoices/invoices.module.js';
import { PaymentsModule } from './payments/payments.module.js';
/** The example enterprise domain: customers, invoices, payments, attachments. */
let BillingModule = class BillingModule {
};
BillingModule = __decorate([
    Module({
        imports: [InvoicesModule, PaymentsModule, AttachmentsModule],
        controllers: [CustomersController],
        providers: [CustomersService, CustomerSummaryService, CollectionsFollowupPrompt],
        exports: [CustomersService],
    })
], BillingModule);
export { BillingModule };
//# sourceMappingURL=billing.module.js.map