import { Inject, Injectable } from '@nestjs/common';
import { McpTasks } from '@nest-mcp/core';
import { McpRegistry, type McpTask, TERMINAL_TASK_STATUSES } from '@nest-mcp/core/extensions';
import { McpAuditLog, McpChannel, PostgresTaskStore, redactArguments } from '@nest-mcp/prisma';
import { MCP_ADMIN_OPTIONS, type McpAdminPerson, type ResolvedMcpAdminOptions } from '../options/mcp-admin.options.js';

/** Tasks shown per workspace: every unfinished one among them, then the most recent finished ones. */
const RECENT_PER_WORKSPACE = 50;

/** One task as the admin pages show it. */
export interface AdminTaskView {
  id: string;
  workspace: { id: string; slug?: string; name: string };
  tool: { name: string; title: string };
  arguments: Record<string, unknown>;
  /** The person the task acts for; undefined when the caller cannot be read back. */
  requestedBy?: { id: string; name: string; email?: string };
  /** Where it was asked: `mcp` (an agent) or `api` (REST). */
  channel?: string;
  client?: { name: string; version?: string };
  status: McpTask['status'];
  statusMessage?: string;
  createdAt: Date;
  startedAt?: Date;
  lastUpdatedAt: Date;
  /** Running time so far (unfinished) or in all (finished), from the start of its last run; undefined before it started. */
  durationMs?: number;
  active: boolean;
}

export type AdminTaskCancel = { kind: 'cancelled' | 'already_finished'; task: AdminTaskView } | { kind: 'not_found' };

/**
 * The tasks of the tenants where the signed-in person may watch tasks (`directory.tenantsWhere(person,
 * 'tasks')`: MCP tasks and queued jobs): who asked for what, how far it got, and a cancel. Read from the task store
 * (`PostgresTaskStore`: every replica's tasks); a cancel goes through the layer (`McpTasks.cancel`),
 * as the client's own would: a running task stops at its next check and rolls back, whichever
 * replica runs it. A person sees no task of another tenant, not even by id.
 */
@Injectable()
export class AdminTasks {
  constructor(
    @Inject(MCP_ADMIN_OPTIONS) private readonly options: ResolvedMcpAdminOptions,
    private readonly store: PostgresTaskStore,
    private readonly tasks: McpTasks,
    private readonly registry: McpRegistry,
    private readonly audit: McpAuditLog,
  ) {}

  /** Unfinished tasks first (oldest first), then finished ones (newest first). */
  async list(personId: string): Promise<AdminTaskView[]> {
    const workspaces = await this.tenants(personId);
    const found = (await Promise.all(workspaces.map((workspace) => this.store.recent(workspace.id, RECENT_PER_WORKSPACE)))).flat();
    const views = await this.views(found, workspaces);
    const active = views.filter((task) => task.active).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    const finished = views.filter((task) => !task.active).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    return [...active, ...finished];
  }

  async cancel(taskId: string, person: McpAdminPerson): Promise<AdminTaskCancel> {
    const workspaces = await this.tenants(person.id);
    const task = /^[0-9a-f-]{36}$/i.test(taskId) ? await this.store.get(taskId.toLowerCase()) : undefined;
    const workspace = task && workspaces.find((w) => w.id === task.workspaceId);
    if (!task || !workspace) return { kind: 'not_found' };
    if (TERMINAL_TASK_STATUSES.includes(task.status)) return { kind: 'already_finished', task: (await this.views([task], workspaces))[0] };
    await this.tasks.cancel(task, `Cancelled by ${person.name} on the admin pages`);
    const now = (await this.store.get(task.id)) ?? task;
    // The cancel is the person's decision: audited like an approval's (in the pages' channel).
    await McpChannel.run(this.options.channel, () =>
      this.audit.record({
        workspaceId: workspace.id,
        userId: person.id,
        tokenId: 'panel:session',
        method: 'task/cancel',
        target: task.tool,
        arguments: { task_id: task.id, requested_by_id: callerUserId(task), arguments: redactArguments(task.arguments) },
        outcome: now.status === 'cancelled' ? 'success' : 'failed',
        durationMs: 0,
        // Beside the task's own `cancelled` row (the call hook's), which carries the same id.
        taskId: task.id,
      }),
    );
    return { kind: now.status === 'cancelled' ? 'cancelled' : 'already_finished', task: (await this.views([now], workspaces))[0] };
  }

  private async tenants(personId: string): Promise<Array<{ id: string; slug?: string; name: string }>> {
    const ids = await this.options.directory.tenantsWhere(personId, 'tasks');
    const named = ids.length ? await this.options.directory.tenants(ids) : new Map<string, { name: string; slug?: string }>();
    return ids.map((id) => ({ id, name: named.get(id)?.name ?? id, ...(named.get(id)?.slug ? { slug: named.get(id)!.slug } : {}) }));
  }

  private async views(tasks: McpTask[], workspaces: Array<{ id: string; slug?: string; name: string }>): Promise<AdminTaskView[]> {
    const ids = [...new Set(tasks.map(callerUserId).filter((id): id is string => !!id))];
    const people = ids.length ? await this.options.directory.people(ids) : new Map<string, { name: string; email?: string }>();
    const now = Date.now();
    return tasks.map((task) => {
      const active = !TERMINAL_TASK_STATUSES.includes(task.status);
      const userId = callerUserId(task);
      const channel = task.caller.channel;
      return {
        id: task.id,
        workspace: workspaces.find((w) => w.id === task.workspaceId) ?? { id: task.workspaceId ?? '', slug: '', name: '' },
        tool: { name: task.tool, title: this.registry.tool(task.tool)?.definition.title ?? task.tool },
        arguments: redactArguments(task.arguments) as Record<string, unknown>,
        ...(userId && people.has(userId) ? { requestedBy: { id: userId, ...people.get(userId)! } } : {}),
        ...(typeof channel === 'string' ? { channel } : {}),
        ...(task.client.info?.name ? { client: { name: task.client.info.name, version: task.client.info.version } } : {}),
        status: task.status,
        ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
        createdAt: task.createdAt,
        ...(task.startedAt ? { startedAt: task.startedAt } : {}),
        lastUpdatedAt: task.lastUpdatedAt,
        ...(task.startedAt ? { durationMs: (active ? now : task.lastUpdatedAt.getTime()) - task.startedAt.getTime() } : {}),
        active,
      };
    });
  }
}

/**
 * The person a task acts for: its stored caller's `userId` (what the application's task callers
 * keep), else the first part of its owner key (`person id:credential id`, the layer's caller key).
 */
function callerUserId(task: McpTask): string | undefined {
  const userId = task.caller.userId;
  if (typeof userId === 'string') return userId;
  const [prefix] = task.ownerKey.split(':');
  return prefix ? prefix : undefined;
}
