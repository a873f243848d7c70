import {
  TERMINAL_TASK_STATUSES,
  type McpTask,
  type McpTaskPatch,
  type McpTaskStatus,
  type McpTaskStore,
} from '../../contracts/task-store.js';

/** Single-process default: tasks live in this process's memory and die with it. */
export class InMemoryTaskStore implements McpTaskStore {
  private readonly tasks = new Map<string, McpTask>();

  /** Count and insert with no await between them: atomic in one process. */
  async create(task: McpTask, limit?: { maxActive: number }): Promise<boolean> {
    const scope = { ...(task.workspaceId !== undefined ? { workspaceId: task.workspaceId } : {}), ownerKey: task.ownerKey };
    if (limit && this.unfinished(scope) >= limit.maxActive) return false;
    this.tasks.set(task.id, structuredClone(task));
    return true;
  }

  async get(id: string): Promise<McpTask | undefined> {
    const task = this.tasks.get(id);
    return task && task.expiresAt.getTime() > Date.now() ? structuredClone(task) : undefined;
  }

  async transition(id: string, from: readonly McpTaskStatus[], patch: McpTaskPatch): Promise<McpTask | undefined> {
    const task = this.tasks.get(id);
    if (!task || !from.includes(task.status)) return undefined;
    Object.assign(task, patch, { lastUpdatedAt: new Date() });
    return structuredClone(task);
  }

  async report(id: string, statusMessage: string): Promise<void> {
    await this.transition(id, ['working'], { statusMessage });
  }

  async answer(id: string, responses: Record<string, unknown>): Promise<McpTask | undefined> {
    const task = this.tasks.get(id);
    if (!task) return undefined;
    if (task.status !== 'input_required') return structuredClone(task);
    const open = { ...task.inputRequests };
    const taken = Object.keys(responses).filter((key) => Object.hasOwn(open, key));
    if (taken.length === 0) return structuredClone(task);
    for (const key of taken) delete open[key];
    task.inputResponses = { ...task.inputResponses, ...Object.fromEntries(taken.map((key) => [key, responses[key]])) };
    task.inputRequests = open;
    if (Object.keys(open).length === 0) {
      task.status = 'working';
      task.statusMessage = 'Resuming with the answers';
    }
    task.lastUpdatedAt = new Date();
    return structuredClone(task);
  }

  async countActive(scope: { workspaceId?: string; ownerKey: string }): Promise<number> {
    return this.unfinished(scope);
  }

  private unfinished(scope: { workspaceId?: string; ownerKey: string }): number {
    let count = 0;
    for (const task of this.tasks.values()) {
      const mine = scope.workspaceId !== undefined ? task.workspaceId === scope.workspaceId : task.ownerKey === scope.ownerKey;
      if (mine && !TERMINAL_TASK_STATUSES.includes(task.status)) count++;
    }
    return count;
  }

  async countRunning(workspaceId: string): Promise<number> {
    let count = 0;
    for (const task of this.tasks.values()) if (task.workspaceId === workspaceId && task.status === 'working' && task.startedAt) count++;
    return count;
  }

  async purgeExpired(now: Date): Promise<number> {
    let purged = 0;
    for (const [id, task] of this.tasks) {
      if (task.expiresAt.getTime() <= now.getTime()) {
        this.tasks.delete(id);
        purged++;
      }
    }
    return purged;
  }
}
