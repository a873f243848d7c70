import { Module } from '@nestjs/common';
import { JobsController } from './jobs.controller.js';

/**
 * The job tool (`billing_job_get`, McpModule `tasks.jobTool`) and the REST job routes: how
 * clients without the MCP tasks extension, and REST clients, follow and cancel queued work.
 * `McpTasks` comes from the global McpModule.
 */
@Module({ controllers: [JobsController] })
export class JobsModule {}
