import { Module } from '@nestjs/common';
import { BillingTaskCallers } from './billing-task.callers.js';

/**
 * How an MCP task (a tool declared with `task`), run by a worker on any replica long after its
 * request, acts as its caller again (`BillingTaskCallers`, the layer's `taskCallers`). Where tasks
 * live and the queue that runs them are `@nest-mcp/prisma`'s (`mcpPrismaTaskExtensions()`,
 * configured in app.mcp-prisma.ts).
 */
@Module({
  providers: [BillingTaskCallers],
  exports: [BillingTaskCallers],
})
export class TasksModule {}
