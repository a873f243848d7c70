import { raw } from '@prisma/client/runtime/client';

/**
 * One `mcp_approvals` row as the statements select it. Timestamps come back as epoch milliseconds
 * computed by PostgreSQL: the columns are `timestamp(3)` holding UTC (Prisma's convention), which
 * `pg` would otherwise read in the process's own time zone.
 */
export interface ApprovalRow {
  id: string;
  workspace_id: string;
  requested_by_id: string;
  requested_by_token_id: string;
  client_name: string | null;
  client_version: string | null;
  tool: string;
  arguments: Record<string, unknown>;
  arguments_hash: string;
  status: 'pending' | 'executed' | 'failed' | 'denied';
  decided_by_id: string | null;
  result: unknown;
  created_ms: number;
  expires_ms: number;
  decided_ms: number | null;
}

export const APPROVAL_COLUMNS = raw(`
  id, workspace_id, requested_by_id, requested_by_token_id, client_name, client_version, tool, arguments,
  arguments_hash, status, decided_by_id, result,
  (extract(epoch FROM created_at) * 1000)::float8 AS created_ms,
  (extract(epoch FROM expires_at) * 1000)::float8 AS expires_ms,
  (extract(epoch FROM decided_at) * 1000)::float8 AS decided_ms`);

/** A UTC `timestamp` parameter (cast with `::timestamp`). */
export function utc(date: Date): string {
  return date.toISOString();
}

/** The approval page of an approval, on the public URL fixed at boot (never the caller's Host header). */
export function approvalUrl(publicUrl: string, path: string, id: string): string {
  return `${publicUrl}${path}/approvals/${id}`;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
