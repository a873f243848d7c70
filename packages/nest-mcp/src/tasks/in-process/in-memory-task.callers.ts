import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { McpTaskCallers } from '../../contracts/task-queue.js';

/**
 * Single-process default: keeps the request that created the task in memory and runs the task
 * with it, as the same caller. Only meaningful with the in-memory task store (the layer refuses to
 * boot with a shared task store and this default: a request cannot travel to another replica).
 */
export class InMemoryTaskCallers implements McpTaskCallers {
  private readonly requests = new Map<string, Request>();

  /** `max`: requests kept; the oldest is forgotten first (its task, if still queued, then fails). */
  constructor(private readonly max = 10_000) {}

  async capture(request: Request): Promise<{ caller: Record<string, unknown> }> {
    const handle = randomUUID();
    this.requests.set(handle, request);
    if (this.requests.size > this.max) this.requests.delete(this.requests.keys().next().value!);
    return { caller: { handle } };
  }

  async actAs<T>(caller: Record<string, unknown>, work: (request: Request) => Promise<T>): Promise<T> {
    const request = typeof caller.handle === 'string' ? this.requests.get(caller.handle) : undefined;
    if (!request) throw new Error('The caller of this task is not known to this process (it was started before a restart)');
    return work(request);
  }
}
