import { Module } from '@nestjs/common';

/** Invoices: REST routes and the MCP tools that dispatch to them. */
@Module({})
export class InvoicesModule {}
