import { Module } from '@nestjs/common';
import { InvoicesController } from './invoices.controller.js';
import { InvoicesService } from './invoices.service.js';

/**
 * Invoices: REST routes and the MCP tools that dispatch to them. PrismaService comes from the
 * global DatabaseModule; customers are read through Prisma (importing BillingModule would be a cycle).
 */
@Module({
  controllers: [InvoicesController],
  providers: [InvoicesService],
  exports: [InvoicesService],
})
export class InvoicesModule {}
