import { Module } from '@nestjs/common';
import { CustomersController } from './customers/customers.controller.js';
import { CustomersService } from './customers/customers.service.js';

/** The example enterprise domain: customers, invoices, payments, attachments. */
@Module({ controllers: [CustomersController], providers: [CustomersService] })
export class BillingModule {}
