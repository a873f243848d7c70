import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { MCP_CALL_HOOK, type McpCallHook, type McpTaskEnd } from '../contracts/call-hook.js';
import type { McpTask } from '../contracts/task-store.js';
import { taskEndCall } from './task-call.js';

/**
 * Tells the application's call hook of a task that ended without a run passing through it (a
 * cancel, a refusal when its run came, a run given up): with the run's own row, one row for every
 * way a task ends. A hook that fails is logged; the task's end stands.
 */
@Injectable()
export class TaskEnds {
  private readonly logger = new Logger('McpTasks');

  constructor(@Inject(MCP_CALL_HOOK) private readonly hook: McpCallHook) {}

  async record(task: McpTask, end: Omit<McpTaskEnd, 'taskId'>, request?: Request): Promise<void> {
    if (!this.hook.taskEnded) return;
    try {
      await this.hook.taskEnded(taskEndCall(task, request), { taskId: task.id, ...end });
    } catch (error) {
      this.logger.warn(`The call hook could not record that task ${task.id} ended (${end.code}): ${(error as Error).message}`);
    }
  }
}
