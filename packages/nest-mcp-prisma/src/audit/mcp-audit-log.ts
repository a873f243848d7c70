import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { McpDatabase } from '../database/mcp-database.js';
import { isDatabaseUnavailable } from '../database/database-unavailable.js';
import { SqlTransactionScope } from '../database/sql-transaction.js';
import { McpChannel } from '../channel/mcp-channel.js';
import { MCP_PRISMA_OPTIONS, type ResolvedMcpPrismaOptions } from '../options/mcp-prisma.options.js';
import type { AuditRecord } from './audit-record.js';
import { boundedJson, boundedText, cutText, MAX_TARGET_CHARS } from './audit-bounds.js';

/** INSERTs of batched events in flight at once (each on its own pooled connection). */
const CONCURRENT_INSERTS = 2;

/**
 * Writes audit rows to `mcp_audit_events`: in the caller's open transaction, if any, so they
 * commit with the write. One parameterised INSERT per event, sent straight to the driver
 * (`McpDatabase.sql`): it runs on every MCP call, and the ORM's per-query work would cost as
 * much as the INSERT itself. The application records its own events here too (REST writes, a
 * person's decisions), so there is one trail.
 */
@Injectable()
export class McpAuditLog {
  private readonly logger = new Logger('Audit');
  private readonly waiting: PendingRow[] = [];
  private inserting = 0;

  constructor(
    private readonly database: McpDatabase,
    @Inject(MCP_PRISMA_OPTIONS) private readonly options: ResolvedMcpPrismaOptions,
  ) {}

  /**
   * In the open transaction of the calling code, if any (sent with its other waiting writes just
   * before it commits), else on its own.
   */
  async record(event: AuditRecord): Promise<void> {
    await this.database.sqlBeforeCommit(sql`INSERT INTO "mcp_audit_events" (${COLUMNS}) VALUES ${this.row(event)}`);
  }

  /**
   * For events with nothing to commit with (reads): events that arrive while INSERTs are in
   * flight share the next, multi-row one (group commit). Two INSERTs may be in flight, so an event
   * arriving during one does not wait for it to end before its own starts. The caller still waits
   * until its event is stored, and gets the error if it could not be. A row the database refuses
   * fails only its own caller: the others of its batch are stored anyway.
   */
  recordBatched(event: AuditRecord): Promise<void> {
    const row = this.row(event);
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, event, done: (error) => (error ? reject(error) : resolve()) });
      if (this.inserting < CONCURRENT_INSERTS) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    // The batch belongs to many callers: it must never join the transaction of the one whose
    // event started the flush.
    await SqlTransactionScope.outside(() => this.flushAll());
  }

  private async flushAll(): Promise<void> {
    this.inserting++;
    try {
      while (this.waiting.length) await this.insert(this.waiting.splice(0, 500));
    } finally {
      this.inserting--;
    }
  }

  /**
   * One INSERT for the batch; if the database refuses it, each half again, down to the row it
   * refuses (a few round trips for one bad row among hundreds, instead of one per row). An
   * unreachable database fails the whole batch at once: retrying would only wait longer.
   */
  private async insert(batch: PendingRow[]): Promise<void> {
    try {
      await this.database.sql(sql`INSERT INTO "mcp_audit_events" (${COLUMNS}) VALUES ${join(batch.map((entry) => entry.row))}`);
      for (const entry of batch) entry.done();
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        for (const entry of batch) entry.done(error);
      } else if (batch.length === 1) {
        const { method, target } = batch[0].event;
        this.logger.error(`Audit event refused by the database (${method} ${boundedText(target, 100) ?? ''}): ${databaseMessage(error)}`);
        batch[0].done(error);
      } else {
        const half = Math.ceil(batch.length / 2);
        await this.insert(batch.slice(0, half));
        await this.insert(batch.slice(half));
      }
    }
  }

  /**
   * The channel is read here, in the caller's context (the batch flushes outside it). Every
   * client-controlled value is made storable and bounded, so a hostile one cannot make the
   * INSERT fail (and with it the other rows of its batch).
   */
  private row(event: AuditRecord): Sql {
    const channel = event.channel ?? McpChannel.of(this.options.channel);
    return sql`(${randomUUID()}::uuid, ${channel}, ${boundedText(event.workspaceId)}, ${boundedText(event.userId)},
      ${boundedText(event.tokenId)}, ${boundedText(event.clientName)}, ${boundedText(event.clientVersion)}, ${boundedText(event.method)},
      ${boundedText(event.target, MAX_TARGET_CHARS)}, ${boundedJson(event.arguments)}::jsonb, ${event.outcome}, ${boundedText(event.errorCode)},
      ${event.durationMs}, ${boundedText(event.traceId)}, ${boundedText(event.taskId)})`;
  }
}

interface PendingRow {
  row: Sql;
  /** To name a refused row in the log. */
  event: AuditRecord;
  done: (error?: unknown) => void;
}

function databaseMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // The last line of a Prisma error is the database's own message; it may quote the value.
  return cutText(message.trim().split('\n').filter(Boolean).at(-1) ?? message, 300);
}

const COLUMNS = raw(
  '"id", "channel", "workspace_id", "user_id", "token_id", "client_name", "client_version", "method", "target", "arguments", "outcome", "error_code", "duration_ms", "trace_id", "task_id"',
);
