import { GoneException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { Request } from 'express';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { McpInvocation } from '../invocation/mcp-invocation.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { answersSoFar } from '../multi-round/client-questions.js';
import { ToolReply } from '../tool-results/tool-reply.js';
import { MCP_TASK_CALLERS, MCP_TASK_QUEUE, type McpTaskCallers, type McpTaskQueue } from '../contracts/task-queue.js';
import { MCP_TASK_STORE, TERMINAL_TASK_STATUSES, type McpTask, type McpTaskStore } from '../contracts/task-store.js';
import { createTaskResult } from './task-wire.js';
import { TaskAborts } from './task-aborts.js';
import { oversizedTask, taskClient } from './task-bounds.js';
import { TaskEnds } from './task-ends.js';
import { LostTasks } from './lost-tasks.js';
import { newTaskId } from './task-id.js';

/** What accepting a call as a task reads of it: an MCP invocation, or a REST request's call (`submit`). */
export type TaskCall = Pick<McpInvocation, 'name' | 'arguments' | 'httpRequest' | 'callerKey' | 'protocolVersion' | 'clientCapabilities'> &
  Partial<Pick<McpInvocation, 'clientInfo' | 'state' | 'inputResponses'>>;

/** A REST request's call of `tool`, as `accept` reads it: the caller of the request, no MCP client behind it. */
export function restTaskCall(options: ResolvedMcpOptions, tool: string, args: Record<string, unknown>, request: Request): TaskCall {
  return {
    name: tool,
    arguments: args,
    httpRequest: request,
    callerKey: options.callerKey(request),
    protocolVersion: options.supportedVersions[0],
    clientCapabilities: {},
  };
}

/** What a tool call answers when the layer accepted it as a task (see `McpTaskInterceptor`); `taskId` once one was created. */
export class TaskAccepted {
  constructor(
    readonly reply: Record<string, unknown> | ToolReply,
    readonly taskId?: string,
  ) {}
}

/** A job as the job tool and the REST job route show it (a task followed without the tasks extension). */
export interface McpJobView {
  jobId: string;
  tool: string;
  /** The task status: `working` (queued or running), `input_required`, `completed`, `failed`, `cancelled`. */
  status: McpTask['status'];
  statusMessage?: string;
  queuedAt: string;
  startedAt?: string;
  lastUpdatedAt: string;
  /** `completed`: the tool's answer (its envelope when it has one, else its result). */
  result?: unknown;
  /** `failed`: what ended it. */
  error?: { code: number; message: string };
}

/**
 * Tasks as callers see them: accepting a call as a task, and reading or steering one's own tasks.
 * Every read is bound to the caller (`callerKey`): another caller's task is "not found", exactly
 * like an unknown id. Used by the layer (`tasks/*`, the task interceptor) and by applications (a
 * job tool, a REST job route).
 */
@Injectable()
export class McpTasks {
  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_TASK_STORE) private readonly store: McpTaskStore,
    @Inject(MCP_TASK_QUEUE) private readonly queue: McpTaskQueue,
    @Inject(MCP_TASK_CALLERS) private readonly callers: McpTaskCallers,
    private readonly aborts: TaskAborts,
    private readonly ends: TaskEnds,
    private readonly lost: LostTasks,
  ) {}

  /**
   * Creates the task for a call that passed every check of its request (guards, idempotency key,
   * confirmation) and queues its run. Inside the call's transaction when the application's call
   * hook opened one: the task and its job commit with the call (durable before the answer).
   */
  async accept(invocation: TaskCall, followedAs: McpTask['followedAs']): Promise<TaskAccepted> {
    const tasks = this.options.tasks;
    const answers = answersSoFar(invocation);
    const oversized = oversizedTask(invocation.name, { arguments: invocation.arguments, answers }, tasks.maxStoredBytes);
    if (oversized) return new TaskAccepted(oversized);
    const { caller, workspaceId } = await this.callers.capture(invocation.httpRequest, {
      tool: invocation.name,
      ...(invocation.arguments ? { arguments: invocation.arguments } : {}),
    });
    const now = new Date();
    const task: McpTask = {
      id: newTaskId(now.getTime()),
      ownerKey: invocation.callerKey ?? '',
      ...(workspaceId !== undefined ? { workspaceId } : {}),
      tool: invocation.name,
      arguments: invocation.arguments ?? {},
      caller,
      client: taskClient(invocation.protocolVersion, invocation.clientCapabilities, invocation.clientInfo),
      followedAs,
      status: 'working',
      statusMessage: 'Queued',
      ...(Object.keys(answers).length ? { inputResponses: answers } : {}),
      createdAt: now,
      lastUpdatedAt: now,
      expiresAt: new Date(now.getTime() + tasks.ttlMs),
      attempts: 0,
    };
    if (!(await this.store.create(task, { maxActive: tasks.maxActivePerWorkspace }))) {
      return new TaskAccepted(tooManyTasks(invocation.name, tasks.maxActivePerWorkspace));
    }
    await this.queue.enqueue(task.id, { ...(workspaceId !== undefined ? { workspaceId } : {}) });
    if (followedAs === 'task') return new TaskAccepted(createTaskResult(task, tasks.pollIntervalMs), task.id);
    return new TaskAccepted(ToolReply.queued({ jobId: task.id, queuedAt: now.toISOString() }, this.howToFollow(task.id)), task.id);
  }

  /**
   * Queues a background tool's work for a REST caller (the REST half of `task: 'background'`):
   * answer `202 Accepted` with `Location` of the job route. The request already passed the route's
   * guards and validation; the run passes the tool's capability guards again, as the caller. `undefined`: the
   * workspace has `maxActivePerWorkspace` unfinished tasks (answer 429).
   */
  async submit(tool: string, args: Record<string, unknown>, request: Request): Promise<McpJobView | undefined> {
    const accepted = await this.accept(restTaskCall(this.options, tool, args, request), 'job');
    if (accepted.reply instanceof ToolReply && !accepted.reply.ok) return undefined;
    const jobId = ((accepted.reply as ToolReply).data as { jobId: string }).jobId;
    return (await this.job(jobId, request))!;
  }

  /** The caller's own task, or undefined (unknown, expired or another caller's: the same answer). */
  async find(taskId: unknown, request: Request): Promise<McpTask | undefined> {
    if (typeof taskId !== 'string' || taskId.length > 200) return undefined;
    const task = await this.store.get(taskId);
    if (!task) return undefined;
    const callerKey = this.options.callerKey(request) ?? '';
    return task.ownerKey === callerKey ? task : undefined;
  }

  /** Answers open questions of the caller's task; the run resumes once none is open. */
  async answer(task: McpTask, responses: Record<string, unknown>): Promise<void> {
    const updated = await this.store.answer(task.id, responses);
    if (task.status === 'input_required' && updated?.status === 'working') {
      await this.queue.enqueue(task.id, { ...(task.workspaceId !== undefined ? { workspaceId: task.workspaceId } : {}) });
    }
  }

  /**
   * Cancels the caller's task unless it finished already (idempotent); a running one is stopped and
   * rolled back. The call hook hears of it once (`taskEnded`), in `request` (the one that cancelled)
   * when given: an audit trail's row of who cancelled.
   */
  async cancel(task: McpTask, statusMessage = 'Cancelled by the client', request?: Request): Promise<void> {
    if (TERMINAL_TASK_STATUSES.includes(task.status)) return;
    const cancelled = await this.store.transition(task.id, ['working', 'input_required'], { status: 'cancelled', statusMessage });
    if (!cancelled) return;
    this.aborts.cancelled(task.id);
    await this.ends.record(cancelled, { outcome: 'cancelled', code: 'task_cancelled', message: statusMessage }, request);
  }

  /** The job view of the caller's task (for a job tool or a REST job route), or undefined. */
  async job(jobId: unknown, request: Request): Promise<McpJobView | undefined> {
    const task = await this.find(jobId, request);
    return task && jobView(task);
  }

  /**
   * What a job tool or route throws when `job()` found nothing: `410 job_lost` for a job the
   * server lost when it restarted (tasks held in memory: start the work again), else
   * `404 not_found` (a wrong id, an expired job or another caller's: check the id). An agent
   * reads the two as different instructions, which "no job" alone cannot give.
   */
  unknownJob(jobId: string): NotFoundException | GoneException {
    const lost = this.lost.explain(jobId, 'job');
    if (lost) return new GoneException({ statusCode: 410, error: 'Gone', code: 'job_lost', message: lost });
    const hours = this.options.tasks.ttlMs / 3_600_000;
    const kept = hours >= 1 ? `${Math.round(hours)} h` : `${Math.round(this.options.tasks.ttlMs / 1000)} s`;
    return new NotFoundException({
      statusCode: 404,
      error: 'Not Found',
      code: 'not_found',
      message:
        `Job ${jobId} was not found among the jobs you started: check the id (the jobId of the queued answer); ` +
        `jobs are kept for ${kept} after they were queued.`,
    });
  }

  /** What the model is told to do next with a queued job. */
  howToFollow(jobId: string): string {
    const tool = this.options.tasks.jobTool;
    return `The work runs in the background. Call ${tool} with job_id "${jobId}" in about ${this.retryAfterSeconds()} s to get its status and, once done, its result; tell the user it is in progress, not finished.`;
  }

  /** How long a client following an unfinished job should wait before asking again, in whole seconds (a REST `Retry-After`). */
  retryAfterSeconds(): number {
    return Math.max(1, Math.round(this.options.tasks.pollIntervalMs / 1000));
  }
}

export function jobView(task: McpTask): McpJobView {
  return {
    jobId: task.id,
    tool: task.tool,
    status: task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    queuedAt: task.createdAt.toISOString(),
    ...(task.startedAt ? { startedAt: task.startedAt.toISOString() } : {}),
    lastUpdatedAt: task.lastUpdatedAt.toISOString(),
    ...(task.status === 'completed' && task.result ? { result: answerOf(task.result) } : {}),
    ...(task.status === 'failed' && task.error ? { error: { code: task.error.code, message: task.error.message } } : {}),
  };
}

/** A tool result's envelope (structured, or the JSON text the layer wrote), else the result itself. */
function answerOf(result: Record<string, unknown>): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const [first] = Array.isArray(result.content) ? (result.content as Array<{ type?: string; text?: string }>) : [];
  if (first?.type === 'text' && typeof first.text === 'string') {
    try {
      return JSON.parse(first.text);
    } catch {
      return result;
    }
  }
  return result;
}

function tooManyTasks(tool: string, max: number): ToolReply {
  return ToolReply.failed([
    {
      code: 'too_many_tasks',
      message:
        `This workspace already has ${max} unfinished tasks, the most it may have: ${tool} was not started. ` +
        'Wait for one to finish (or cancel one) and call again.',
      retryable: true,
    },
  ]);
}
