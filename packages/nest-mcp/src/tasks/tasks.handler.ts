import { Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { isPlainObject } from '../protocol/json-rpc-message.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import type { McpTask } from '../contracts/task-store.js';
import { McpTasks } from './mcp-tasks.service.js';
import { LostTasks } from './lost-tasks.js';
import { declaresTasks, detailedTask, taskNotFound, tasksCapabilityMissing } from './task-wire.js';

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` (the tasks extension, docs/tasks.md). Each
 * needs the extension declared on the request, and finds only the caller's own tasks.
 * (`tasks/result` and `tasks/list` do not exist in this extension: they are unknown methods.)
 */
@Injectable()
export class TasksHandler {
  constructor(
    private readonly tasks: McpTasks,
    private readonly lost: LostTasks,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  async get(params: Record<string, unknown>, context: McpRequestContext): Promise<Record<string, unknown>> {
    const task = await this.own(params, context, 'tasks/get');
    return detailedTask(task, this.options.tasks.pollIntervalMs);
  }

  /** Takes answers to open questions (others are ignored, as the extension says); an empty ack. */
  async update(params: Record<string, unknown>, context: McpRequestContext): Promise<Record<string, never>> {
    const task = await this.own(params, context, 'tasks/update');
    if (!isPlainObject(params.inputResponses)) {
      throw McpProtocolError.invalidParams('Invalid params: "inputResponses" must be an object keyed by the task\'s inputRequests keys');
    }
    await this.tasks.answer(task, params.inputResponses);
    return {};
  }

  /** An empty ack, also for a task that already finished (cancel is idempotent). */
  async cancel(params: Record<string, unknown>, context: McpRequestContext): Promise<Record<string, never>> {
    const task = await this.own(params, context, 'tasks/cancel');
    await this.tasks.cancel(task, undefined, context.httpRequest);
    return {};
  }

  private async own(params: Record<string, unknown>, context: McpRequestContext, method: string): Promise<McpTask> {
    if (!declaresTasks(context.clientCapabilities)) throw tasksCapabilityMissing(method, context.era);
    if (typeof params.taskId !== 'string' || !params.taskId) {
      throw McpProtocolError.invalidParams('Invalid params: "taskId" must be the taskId a tools/call answered');
    }
    const task = await this.tasks.find(params.taskId, context.httpRequest);
    if (!task) throw taskNotFound(this.lost.explain(params.taskId, 'task'));
    return task;
  }
}
