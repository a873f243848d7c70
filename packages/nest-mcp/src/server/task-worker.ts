import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { HttpException, Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { McpDispatcher } from './mcp.dispatcher.js';
import {
  MCP_TASK_CALLERS,
  MCP_TASK_QUEUE,
  McpTaskRefused,
  type McpTaskCallers,
  type McpTaskQueue,
  type McpTaskRunOutcome,
} from '../contracts/task-queue.js';
import { MCP_TASK_STORE, type McpTask, type McpTaskError, type McpTaskStore } from '../contracts/task-store.js';
import { TaskAborts, TaskStopped } from '../tasks/task-aborts.js';
import { TaskEnds } from '../tasks/task-ends.js';

const DONE: McpTaskRunOutcome = { kind: 'done' };
/** Progress is written at most this often: a handler reporting every row must not write every row. */
const PROGRESS_EVERY_MS = 500;

/**
 * Runs queued tasks, on every replica the queue gives jobs to. Running a task is idempotent, so a
 * job delivered twice (its first worker killed) runs the work at most once to completion:
 * - a finished task is not run again;
 * - a successful outcome is written inside the call hook's transaction, with the work's own writes
 *   and audit row: they commit together or not at all;
 * - every status change is a compare-and-set, so a cancel and a completion never both win.
 */
@Injectable()
export class McpTaskWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('McpTasks');
  private purgeTimer?: NodeJS.Timeout;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_TASK_STORE) private readonly store: McpTaskStore,
    @Inject(MCP_TASK_QUEUE) private readonly queue: McpTaskQueue,
    @Inject(MCP_TASK_CALLERS) private readonly callers: McpTaskCallers,
    private readonly dispatcher: McpDispatcher,
    private readonly registry: McpRegistry,
    private readonly aborts: TaskAborts,
    private readonly ends: TaskEnds,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.registry.hasTaskTools) return;
    const { maxRunMs, maxRunningPerWorkspace } = this.options.tasks;
    await this.queue.start((taskId) => this.run(taskId), { maxRunMs, maxRunningPerWorkspace });
    this.purgeTimer = setInterval(() => void this.purge(), this.options.tasks.purgeEveryMs);
    this.purgeTimer.unref();
  }

  /**
   * At shutdown, while the application's modules still work (their own shutdown hooks come after):
   * running tasks are stopped and rolled back, their jobs handed back to the queue for another worker.
   */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.purgeTimer);
    this.aborts.stopAll();
    await this.queue.stop();
  }

  /** One delivery of a task's job (see `McpTaskRun`). */
  async run(taskId: string): Promise<McpTaskRunOutcome> {
    const limits = this.options.tasks;
    const task = await this.store.get(taskId);
    // Unknown (purged), finished, or waiting for the client's answers (`tasks/update` queues it again).
    if (!task || task.status !== 'working') return DONE;
    if (task.attempts >= limits.maxAttempts) {
      const message = `The task was started ${task.attempts} times and its worker stopped each time before it finished; nothing it did was kept.`;
      if (await this.fail(task, { code: McpErrorCode.InternalError, message })) {
        await this.ends.record(task, { outcome: 'failed', code: 'task_gave_up', message });
      }
      return DONE;
    }
    if (task.workspaceId !== undefined && (await this.store.countRunning(task.workspaceId)) >= limits.maxRunningPerWorkspace) {
      return { kind: 'later', delayMs: limits.pollIntervalMs };
    }
    // A run that ended hands its task on without `startedAt` (done, waiting for answers, or back in
    // the queue at a shutdown): one still set means the worker of the last run died mid-way.
    const resumed = task.startedAt !== undefined;
    const started = await this.store.transition(task.id, ['working'], {
      attempts: task.attempts + 1,
      startedAt: new Date(),
      statusMessage: resumed ? `Running again (${resumedNote(task.attempts + 1)})` : 'Running',
    });
    if (!started) return DONE; // cancelled meanwhile
    return this.execute(started, resumed);
  }

  private async execute(task: McpTask, resumed: boolean): Promise<McpTaskRunOutcome> {
    const run = this.aborts.track(task.id);
    const watch = this.watch(task, run.stop);
    // Whether the run reached the call hook, which then records how it ended; before it, this does.
    let dispatched = false;
    try {
      const result = await this.callers.actAs(task.caller, (request) => {
        dispatched = true;
        return this.dispatcher.runTaskCall(task, request, {
          signal: run.signal,
          // The resumed run's progress keeps saying so: the client polling it sees why it started over.
          progress: throttledProgress(this.store, task.id, resumed ? resumedNote(task.attempts) : undefined),
          // Inside the call hook's transaction: the outcome commits with the work.
          completed: async (outcome) => {
            const done = await this.store.transition(task.id, ['working'], {
              status: 'completed',
              result: outcome,
              statusMessage: 'Completed',
            });
            if (!done) throw new TaskStopped('cancelled', 'The task was cancelled: nothing it did was kept');
          },
        });
      });
      if (isInputRequiredResult(result)) await this.awaitInput(task, result.inputRequests ?? {});
      // An `isError` result rolled the work back; it is still the task's answer. (A success was recorded inside.)
      else if (result.isError)
        await this.store.transition(task.id, ['working'], { status: 'completed', result, statusMessage: 'Completed' });
      return DONE;
    } catch (error) {
      const reason = run.signal.reason;
      if (reason instanceof TaskStopped && reason.why === 'shutdown') {
        // Not the task's fault: the next worker runs it again, and this run does not count.
        await this.store.transition(task.id, ['working'], { attempts: task.attempts - 1, startedAt: undefined, statusMessage: 'Queued' });
        throw error;
      }
      if (reason instanceof TaskStopped && reason.why === 'cancelled') return DONE;
      const failure = errorOf(reason instanceof TaskStopped ? reason : error, task);
      if ((await this.fail(task, failure)) && !dispatched) {
        const refused = error instanceof McpTaskRefused;
        await this.ends.record(task, {
          outcome: refused ? 'refused' : 'failed',
          code: refused ? 'task_refused' : 'task_fault',
          message: failure.message,
        });
      }
      return DONE;
    } finally {
      clearInterval(watch);
      run.release();
    }
  }

  /** Stops the run when it is cancelled from another replica, or when it overruns `maxRunMs`. */
  private watch(task: McpTask, stop: (reason: TaskStopped) => void): NodeJS.Timeout {
    const deadline = Date.now() + this.options.tasks.maxRunMs;
    const timer = setInterval(
      () => {
        if (Date.now() >= deadline) {
          stop(
            new TaskStopped(
              'timed-out',
              `The task ran longer than its limit of ${this.options.tasks.maxRunMs} ms and was stopped; nothing it did was kept.`,
            ),
          );
          return;
        }
        this.store
          .get(task.id)
          .then((now) => {
            if (!now || now.status === 'cancelled') stop(new TaskStopped('cancelled', 'The task was cancelled: nothing it did was kept'));
          })
          .catch(() => undefined);
      },
      Math.min(this.options.tasks.cancelCheckMs, this.options.tasks.maxRunMs),
    );
    timer.unref();
    return timer;
  }

  /** The work asked the client something: the task waits for `tasks/update` (a job's client cannot answer). */
  private async awaitInput(task: McpTask, inputRequests: Record<string, unknown>): Promise<void> {
    if (task.followedAs === 'job') {
      await this.store.transition(task.id, ['working'], {
        status: 'completed',
        statusMessage: 'Needs input a queued job cannot get',
        result: {
          isError: true,
          content: [
            {
              type: 'text',
              text: `${task.tool} asked for more input, which a queued job cannot get: nothing was done. Call it from a client that supports the tasks extension.`,
            },
          ],
        },
      });
      return;
    }
    const answered = task.inputResponses ?? {};
    const open = Object.fromEntries(Object.entries(inputRequests).filter(([key]) => !Object.hasOwn(answered, key)));
    await this.store.transition(task.id, ['working'], {
      status: 'input_required',
      inputRequests: open,
      startedAt: undefined,
      statusMessage: 'Waiting for input',
    });
  }

  /** Whether this failed it (not a cancel or another worker first). */
  private async fail(task: McpTask, error: McpTaskError): Promise<boolean> {
    return !!(await this.store.transition(task.id, ['working', 'input_required'], {
      status: 'failed',
      error,
      statusMessage: error.message,
    }));
  }

  private async purge(): Promise<void> {
    try {
      const purged = await this.store.purgeExpired(new Date());
      if (purged) this.logger.log(`Purged ${purged} expired task(s)`);
    } catch (error) {
      this.logger.warn(`Could not purge expired tasks: ${(error as Error).message}`);
    }
  }
}

/** The JSON-RPC error a failed task keeps: a protocol error as it is, anything else masked (no stack, no internals). */
function errorOf(error: unknown, task: McpTask): McpTaskError {
  if (error instanceof McpProtocolError)
    return { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) };
  // The application refused to act for the caller any longer (a revoked token), or its guards did.
  if (error instanceof McpTaskRefused)
    return { code: McpErrorCode.InvalidRequest, message: `${task.tool} could not run: ${error.message}` };
  if (error instanceof HttpException && error.getStatus() < 500) {
    return { code: McpErrorCode.InvalidRequest, message: `${task.tool} could not run: ${error.message}` };
  }
  return { code: McpErrorCode.InternalError, message: 'Internal error' };
}

/** What a run started again after its worker died says, beside its progress. */
function resumedNote(attempt: number): string {
  return `attempt ${attempt}: the worker of the previous run stopped before it finished, and nothing it did was kept`;
}

function throttledProgress(store: McpTaskStore, taskId: string, note?: string) {
  let last = 0;
  return async (done: number, total?: number, message?: string): Promise<void> => {
    const now = Date.now();
    // The last report (done = total) is always written: a run that ends on it must not show an older one.
    if (now - last < PROGRESS_EVERY_MS && !(total !== undefined && done >= total)) return;
    last = now;
    const counted = total ? `${done}/${total}` : `${done}`;
    const text = message ? `${message} (${counted})` : `In progress (${counted})`;
    await store.report(taskId, note ? `${text}; ${note}` : text);
  };
}
