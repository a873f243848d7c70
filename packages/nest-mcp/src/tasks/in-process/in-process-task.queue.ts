import { Logger } from '@nestjs/common';
import type { McpTaskQueue, McpTaskRun } from '../../contracts/task-queue.js';

/**
 * Single-process default: runs tasks in this process, a few at a time. A task queued here is lost
 * with the process (use a real queue, e.g. on the application's database, across replicas).
 */
export class InProcessTaskQueue implements McpTaskQueue {
  private readonly logger = new Logger('McpTasks');
  private run?: McpTaskRun;
  private readonly waiting: string[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly concurrency = 4) {}

  async start(run: McpTaskRun): Promise<void> {
    this.run = run;
    this.stopped = false;
    this.pump();
  }

  async enqueue(taskId: string, options: { delayMs?: number } = {}): Promise<void> {
    if (options.delayMs) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.waiting.push(taskId);
        this.pump();
      }, options.delayMs);
      timer.unref();
      this.timers.add(timer);
      return;
    }
    this.waiting.push(taskId);
    // After the current call stack: a task created inside a transaction is run once it committed.
    setImmediate(() => this.pump());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }

  private pump(): void {
    while (!this.stopped && this.run && this.running.size < this.concurrency && this.waiting.length) {
      const taskId = this.waiting.shift()!;
      const job: Promise<void> = this.run(taskId)
        .then((outcome) => {
          if (outcome.kind === 'later') void this.enqueue(taskId, { delayMs: outcome.delayMs });
        })
        .catch((error: Error) => {
          this.logger.error(`Task ${taskId} could not run: ${error.message}; trying again in 1 s`);
          void this.enqueue(taskId, { delayMs: 1000 });
        })
        .finally(() => {
          this.running.delete(job);
          this.pump();
        });
      this.running.add(job);
    }
  }
}
