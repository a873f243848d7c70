import type { McpTask, McpTaskError, McpTaskStatus } from '@nest-mcp/core/extensions';
import { raw } from '@prisma/client/runtime/client';

/**
 * What the store's statements select, as `pg` parses it. Timestamps come back as epoch
 * milliseconds computed by PostgreSQL: the columns are `timestamp(3)` holding UTC (Prisma's
 * convention), which `pg` would otherwise read in the process's own time zone.
 */
export interface TaskRow {
  id: string;
  owner_key: string;
  workspace_id: string | null;
  tool: string;
  arguments: Record<string, unknown>;
  caller: Record<string, unknown>;
  client: McpTask['client'];
  followed_as: McpTask['followedAs'];
  status: McpTaskStatus;
  status_message: string | null;
  input_requests: Record<string, unknown> | null;
  input_responses: Record<string, unknown> | null;
  result: Record<string, unknown> | null;
  error: McpTaskError | null;
  created_ms: number;
  last_updated_ms: number;
  started_ms: number | null;
  expires_ms: number;
  attempts: number;
}

/** The select list (and `RETURNING` list) every statement of the store reads a task with. */
export const TASK_COLUMNS = raw(`
  id, owner_key, workspace_id, tool, arguments, caller, client, followed_as, status,
  status_message, input_requests, input_responses, result, error,
  (extract(epoch FROM created_at) * 1000)::float8 AS created_ms,
  (extract(epoch FROM last_updated_at) * 1000)::float8 AS last_updated_ms,
  (extract(epoch FROM started_at) * 1000)::float8 AS started_ms,
  (extract(epoch FROM expires_at) * 1000)::float8 AS expires_ms,
  attempts`);

/** The task a row holds; a column that is NULL is a field the task does not have (as the layer's types say). */
export function taskOfRow(row: TaskRow): McpTask {
  return {
    id: row.id,
    ownerKey: row.owner_key,
    ...(row.workspace_id !== null ? { workspaceId: row.workspace_id } : {}),
    tool: row.tool,
    arguments: row.arguments,
    caller: row.caller,
    client: row.client,
    followedAs: row.followed_as,
    status: row.status,
    ...(row.status_message !== null ? { statusMessage: row.status_message } : {}),
    ...(row.input_requests !== null ? { inputRequests: row.input_requests } : {}),
    ...(row.input_responses !== null ? { inputResponses: row.input_responses } : {}),
    ...(row.result !== null ? { result: row.result } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
    createdAt: new Date(row.created_ms),
    lastUpdatedAt: new Date(row.last_updated_ms),
    ...(row.started_ms !== null ? { startedAt: new Date(row.started_ms) } : {}),
    expiresAt: new Date(row.expires_ms),
    attempts: row.attempts,
  };
}

/** A `timestamp(3)` parameter (cast with `::timestamp`): the UTC wall clock, whatever the process's time zone. */
export function utc(date: Date): string {
  return date.toISOString();
}

/** A `jsonb` parameter (cast with `::jsonb`): undefined is SQL NULL, the field's absence. */
export function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
