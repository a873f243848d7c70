import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { empty, join, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { McpTask, McpTaskPatch, McpTaskStatus, McpTaskStore } from '@nest-mcp/core/extensions';
import { McpDatabase } from '../database/mcp-database.js';
import { json, TASK_COLUMNS, taskOfRow, utc, type TaskRow } from './task-row.js';

/** Rows deleted per statement by `purgeExpired`: a long backlog goes in short statements, never one long lock. */
const PURGE_BATCH = 1000;
const ACTIVE: readonly McpTaskStatus[] = ['working', 'input_required'];

/**
 * The MCP layer's `taskStore`: tasks in `mcp_tasks`, read and written by every replica.
 *
 * Every statement goes through `McpDatabase.sql`, so inside `database.transaction(…)` it runs in
 * that transaction: a task created by a call commits (or rolls back) with the call, and an outcome
 * written inside the work's transaction commits with the work. `report` alone writes outside it,
 * because the client must see progress before the work commits.
 *
 * The compare-and-sets are single statements decided by PostgreSQL's row lock, not by anything in
 * this process, so they hold across replicas: of two replicas moving one task (a cancel and a
 * completion), the second `UPDATE … WHERE status = ANY(…)` re-reads the row the first committed and
 * matches nothing.
 *
 * Times the layer gives (`createdAt`, `expiresAt`, `startedAt`) and `lastUpdatedAt` are this
 * replica's clock, as the layer's own store has them.
 */
@Injectable()
export class PostgresTaskStore implements McpTaskStore, OnApplicationBootstrap {
  private readonly logger = new Logger('McpTasks');
  /** Whether the database is the embedded one (see `report`), asked once. */
  private embedded?: Promise<boolean>;

  constructor(private readonly database: McpDatabase) {}

  /**
   * Asks which database this is once, at boot, outside any transaction: asked first from inside a
   * run's transaction (`report`), the question would be that transaction's first statement and
   * open it, for the whole run (on the embedded database, every other request would wait for it).
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.isEmbedded().catch(() => undefined);
  }

  /**
   * With `limit`, the count and the insert run under a transaction-scoped advisory lock on the
   * task's workspace (its owner without one), held until the surrounding transaction ends: two
   * replicas creating a task for one workspace at once take turns, and the second counts the
   * first's row. Creates for other workspaces never wait on it.
   */
  async create(task: McpTask, limit?: { maxActive: number }): Promise<boolean> {
    if (!limit) {
      await this.database.sql(this.insertStatement(task, empty));
      return true;
    }
    return this.database.transaction(async () => {
      const key = task.workspaceId !== undefined ? `mcp_tasks:workspace:${task.workspaceId}` : `mcp_tasks:owner:${task.ownerKey}`;
      await this.database.sql(sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
      // A statement of its own, after the lock: its snapshot sees the rows of the create that held it.
      const { rowCount } = await this.database.sql(
        this.insertStatement(
          task,
          sql`WHERE (${unfinishedCount({ ...(task.workspaceId !== undefined ? { workspaceId: task.workspaceId } : {}), ownerKey: task.ownerKey })}) < ${limit.maxActive}::int`,
        ),
      );
      return rowCount === 1;
    });
  }

  /** `INSERT … SELECT <the task's values> <condition>`: unconditional with an empty one. */
  private insertStatement(task: McpTask, condition: Sql): Sql {
    return sql`
      INSERT INTO mcp_tasks (id, owner_key, workspace_id, tool, arguments, caller, client, followed_as, status, status_message,
                             input_requests, input_responses, result, error, created_at, last_updated_at, started_at, expires_at, attempts)
      SELECT ${task.id}, ${task.ownerKey}, ${task.workspaceId ?? null}, ${task.tool}, ${json(task.arguments)}::jsonb,
             ${json(task.caller)}::jsonb, ${json(task.client)}::jsonb, ${task.followedAs}, ${task.status}, ${task.statusMessage ?? null},
             ${json(task.inputRequests)}::jsonb, ${json(task.inputResponses)}::jsonb, ${json(task.result)}::jsonb,
             ${json(task.error)}::jsonb, ${utc(task.createdAt)}::timestamp, ${utc(task.lastUpdatedAt)}::timestamp,
             ${task.startedAt ? utc(task.startedAt) : null}::timestamp, ${utc(task.expiresAt)}::timestamp, ${task.attempts}::int
      ${condition}`;
  }

  async get(id: string): Promise<McpTask | undefined> {
    const { rows } = await this.database.sql<TaskRow>(sql`
      SELECT ${TASK_COLUMNS} FROM mcp_tasks WHERE id = ${id} AND expires_at > ${utc(new Date())}::timestamp`);
    return rows[0] && taskOfRow(rows[0]);
  }

  /**
   * One `UPDATE … WHERE id = $1 AND status = ANY($2) RETURNING …`. A field the patch names is set,
   * to NULL when its value is undefined (the layer's store assigns the patch as it is); a field it
   * does not name is left as it is.
   */
  async transition(id: string, from: readonly McpTaskStatus[], patch: McpTaskPatch): Promise<McpTask | undefined> {
    const { rows } = await this.database.sql<TaskRow>(sql`
      UPDATE mcp_tasks SET ${join(assignments(patch), ', ')}
      WHERE id = ${id} AND status = ANY(${[...from]}::text[])
      RETURNING ${TASK_COLUMNS}`);
    return rows[0] && taskOfRow(rows[0]);
  }

  /**
   * Progress of a running task, on the pool's own connection (never the work's transaction, which
   * has not committed yet). On the embedded database that write waits until the open transaction
   * ends (one backend serves every connection): awaiting it from inside the work would wait for
   * ever, so there it is sent and not awaited (it then lands after the work's end, and changes
   * nothing once the task is no longer `working`).
   */
  async report(id: string, statusMessage: string): Promise<void> {
    const wouldWaitForItself = this.database.inTransaction && (await this.isEmbedded());
    const write = this.database.outsideTransaction(() =>
      this.database.sql(sql`
        UPDATE mcp_tasks SET status_message = ${statusMessage}, last_updated_at = ${utc(new Date())}::timestamp
        WHERE id = ${id} AND status = 'working'`),
    );
    if (!wouldWaitForItself) {
      await write;
      return;
    }
    write.catch((error: Error) => this.logger.warn(`Could not report the progress of task ${id}: ${error.message}`));
  }

  /**
   * One UPDATE, atomic under concurrent answers: PostgreSQL serializes them on the row lock and
   * re-evaluates the second against the row the first committed, so each open key is taken once
   * and the last answer sends the task back to `working`. Keys not open are ignored; an answer
   * that takes no open key changes nothing and gets the task as it is.
   */
  async answer(id: string, responses: Record<string, unknown>): Promise<McpTask | undefined> {
    const keys = Object.keys(responses);
    if (keys.length) {
      const { rows } = await this.database.sql<TaskRow>(sql`
        UPDATE mcp_tasks t SET
          input_responses = COALESCE(t.input_responses, '{}'::jsonb)
            || COALESCE((SELECT jsonb_object_agg(r.key, r.value) FROM jsonb_each(${json(responses)}::jsonb) r WHERE t.input_requests ? r.key), '{}'::jsonb),
          input_requests = t.input_requests - ${keys}::text[],
          status = CASE WHEN t.input_requests - ${keys}::text[] = '{}'::jsonb THEN 'working' ELSE t.status END,
          status_message = CASE WHEN t.input_requests - ${keys}::text[] = '{}'::jsonb THEN 'Resuming with the answers' ELSE t.status_message END,
          last_updated_at = ${utc(new Date())}::timestamp
        WHERE t.id = ${id} AND t.status = 'input_required' AND t.input_requests ?| ${keys}::text[]
        RETURNING ${TASK_COLUMNS}`);
      if (rows[0]) return taskOfRow(rows[0]);
    }
    const { rows } = await this.database.sql<TaskRow>(sql`SELECT ${TASK_COLUMNS} FROM mcp_tasks WHERE id = ${id}`);
    return rows[0] && taskOfRow(rows[0]);
  }

  async countActive(scope: { workspaceId?: string; ownerKey: string }): Promise<number> {
    const { rows } = await this.database.sql<{ n: number }>(sql`SELECT (${unfinishedCount(scope)}) AS n`);
    return rows[0]?.n ?? 0;
  }

  async countRunning(workspaceId: string): Promise<number> {
    const { rows } = await this.database.sql<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM mcp_tasks
      WHERE workspace_id = ${workspaceId} AND status = 'working' AND started_at IS NOT NULL
        AND expires_at > ${utc(new Date())}::timestamp`);
    return rows[0]?.n ?? 0;
  }

  async purgeExpired(now: Date): Promise<number> {
    let purged = 0;
    for (;;) {
      const { rowCount } = await this.database.sql(sql`
        DELETE FROM mcp_tasks WHERE id IN (
          SELECT id FROM mcp_tasks WHERE expires_at <= ${utc(now)}::timestamp LIMIT ${PURGE_BATCH}::int)`);
      purged += rowCount;
      if (rowCount < PURGE_BATCH) return purged;
    }
  }

  /** A workspace's tasks, newest first, expired ones included until purged: for the admin pages (not in the layer's contract). */
  async recent(workspaceId: string, limit = 50): Promise<McpTask[]> {
    const { rows } = await this.database.sql<TaskRow>(sql`
      SELECT ${TASK_COLUMNS} FROM mcp_tasks WHERE workspace_id = ${workspaceId}
      ORDER BY created_at DESC LIMIT ${Math.max(1, Math.min(limit, 500))}::int`);
    return rows.map(taskOfRow);
  }

  /**
   * Deletes a tenant's tasks, finished or not (a run that was due finds no task and does nothing).
   * Tasks name their tenant as text, with no foreign key to the application's tables: call this
   * where the application deletes a tenant. Returns how many went.
   */
  async deleteWorkspaceTasks(workspaceId: string): Promise<number> {
    const { rowCount } = await this.database.sql(sql`DELETE FROM mcp_tasks WHERE workspace_id = ${workspaceId}`);
    return rowCount;
  }

  private isEmbedded(): Promise<boolean> {
    this.embedded ??= this.database
      .sql<{ version: string }>(sql`SELECT version()`)
      .then(({ rows }) => !!rows[0]?.version.includes('PGlite'))
      .catch((error: unknown) => {
        this.embedded = undefined;
        throw error;
      });
    return this.embedded;
  }
}

/** How many unfinished, unexpired tasks a workspace has (an owner, without one): one scalar subquery. */
function unfinishedCount(scope: { workspaceId?: string; ownerKey: string }): Sql {
  const whose = scope.workspaceId !== undefined ? sql`workspace_id = ${scope.workspaceId}` : sql`owner_key = ${scope.ownerKey}`;
  return sql`SELECT count(*)::int FROM mcp_tasks
    WHERE ${whose} AND status = ANY(${[...ACTIVE]}::text[]) AND expires_at > ${utc(new Date())}::timestamp`;
}

/** The SET list of a transition: `last_updated_at`, then each field the patch names. */
function assignments(patch: McpTaskPatch): Sql[] {
  const sets = [sql`last_updated_at = ${utc(new Date())}::timestamp`];
  const has = (field: keyof McpTaskPatch) => Object.hasOwn(patch, field);
  // NOT NULL columns: an undefined status or attempts leaves them as they are.
  if (patch.status !== undefined) sets.push(sql`status = ${patch.status}`);
  if (patch.attempts !== undefined) sets.push(sql`attempts = ${patch.attempts}::int`);
  if (has('statusMessage')) sets.push(sql`status_message = ${patch.statusMessage ?? null}`);
  if (has('inputRequests')) sets.push(sql`input_requests = ${json(patch.inputRequests)}::jsonb`);
  if (has('inputResponses')) sets.push(sql`input_responses = ${json(patch.inputResponses)}::jsonb`);
  if (has('result')) sets.push(sql`result = ${json(patch.result)}::jsonb`);
  if (has('error')) sets.push(sql`error = ${json(patch.error)}::jsonb`);
  if (has('startedAt')) sets.push(sql`started_at = ${patch.startedAt ? utc(patch.startedAt) : null}::timestamp`);
  return sets;
}
