import type { McpAuditActor } from '../options/mcp-prisma.options.js';

/**
 * `queued`: a call accepted as a task or a queued job, whose work runs later (its run has a row
 * of its own); `cancelled`: a task's run stopped by a cancel, nothing it did kept.
 */
export type AuditOutcome = 'success' | 'failed' | 'denied' | 'error' | 'queued' | 'cancelled';

/** One row of `mcp_audit_events`. */
export interface AuditRecord extends McpAuditActor {
  /** Default: the channel of the running code (`mcp` inside an MCP call; see `McpChannel`). */
  channel?: string;
  clientName?: string;
  clientVersion?: string;
  /** `tools/call`, `resources/read`, … or, for a REST write, `POST /v1/…`. */
  method: string;
  target?: string;
  /** Stored with secrets redacted (see `redactArguments`) and bounded. */
  arguments?: unknown;
  outcome: AuditOutcome;
  errorCode?: string;
  durationMs: number;
  traceId?: string;
  /** The MCP task or queued job the row is about: its `queued` row, its run's and its end's share it. */
  taskId?: string;
}
