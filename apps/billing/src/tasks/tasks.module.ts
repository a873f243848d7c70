import { Module } from '@nestjs/common';
import { BillingTaskCallers } from './billing-task.callers.js';
import { PgBossTaskQueue } from './pg-boss-task.queue.js';
import { PostgresTaskStore } from './postgres-task.store.js';

/**
 * MCP tasks (tools declared with `task`) shared by every replica: where they live
 * (`PostgresTaskStore`, table `mcp_tasks`), the queue that runs them on any replica
 * (`PgBossTaskQueue`, pg-boss in the same PostgreSQL; `TASK_WORKERS` per process) and how a run
 * acts as its caller again (`BillingTaskCallers`). The app hands them to `McpModule.forRoot`
 * (`taskStore`, `taskQueue`, `taskCallers`); the store's `recent` serves the admin pages.
 */
@Module({
  providers: [PostgresTaskStore, PgBossTaskQueue, BillingTaskCallers],
  exports: [PostgresTaskStore, PgBossTaskQueue, BillingTaskCallers],
})
export class TasksModule {}
