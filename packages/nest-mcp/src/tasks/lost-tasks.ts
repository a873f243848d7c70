import { Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { MCP_TASK_STORE, type McpTaskStore } from '../contracts/task-store.js';
import { InMemoryTaskStore } from './in-process/in-memory-task.store.js';
import { issuedAtOf } from './task-id.js';

/**
 * Tells a task lost with the process that held it from an id that never named one of the caller's
 * tasks. Only a store that keeps tasks in this process's memory loses them (the default, when no
 * durable store is configured); its tasks die with the process, and an id issued before this
 * process started, and not yet past its time to live, named a task that is gone.
 */
@Injectable()
export class LostTasks {
  private readonly startedAt = Date.now();
  private readonly storeIsInMemory: boolean;
  private readonly ttlMs: number;

  constructor(@Inject(MCP_OPTIONS) options: ResolvedMcpOptions, @Inject(MCP_TASK_STORE) store: McpTaskStore) {
    this.storeIsInMemory = store instanceof InMemoryTaskStore;
    this.ttlMs = options.tasks.ttlMs;
  }

  /** The sentence that explains why an unknown id is lost; undefined when it may simply be wrong. */
  explain(id: string, what: 'job' | 'task'): string | undefined {
    const issuedAt = issuedAtOf(id);
    if (!this.storeIsInMemory || issuedAt === undefined) return undefined;
    if (issuedAt >= this.startedAt || issuedAt <= Date.now() - this.ttlMs) return undefined;
    return (
      `${what === 'job' ? 'Job' : 'Task'} ${id} was lost: it was queued at ${new Date(issuedAt).toISOString()}, and the server ` +
      `restarted at ${new Date(this.startedAt).toISOString()}; it keeps ${what}s in memory only, so none queued before then will ` +
      'finish. Start the work again (call the tool that queued it); the id is not wrong.'
    );
  }
}
