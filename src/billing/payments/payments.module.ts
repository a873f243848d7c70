import { Module } from '@nestjs/common';

/** Payments: REST routes and the MCP tools that dispatch to them. */
@Module({})
export class PaymentsModule {}
