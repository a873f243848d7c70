import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { RequestContext } from '../context/request-context.js';
import { Prisma, type Channel } from '../generated/prisma/client.js';
import { PrismaService } from '../database/prisma.service.js';
import type { TransactionClient } from '../database/prisma.types.js';

export type AuditOutcome = 'success' | 'failed' | 'denied' | 'error';

export interface AuditRecord {
  /** Default: the channel of the current request (an MCP call: `mcp`; a decision on the admin pages: `panel`). */
  channel?: Channel;
  workspaceId?: string;
  userId?: string;
  tokenId?: string;
  clientName?: string;
  clientVersion?: string;
  method: string;
  target?: string;
  arguments?: unknown;
  outcome: AuditOutcome;
  errorCode?: string;
  durationMs: number;
  traceId?: string;
}

/**
 * Writes audit events: in the caller's transaction when given one, so they commit with the write.
 * One parameterised INSERT per event (not the ORM's `create`, which costs a query compilation on
 * every MCP call: see the benchmark notes in the README).
 */
@Injectable()
export class AuditService {
  private readonly waiting: Array<{ row: Prisma.Sql; done: (error?: unknown) => void }> = [];
  private flushing = false;

  constructor(private readonly prisma: PrismaService) {}

  /** Into `client`, else the request's open transaction (if any), else on its own. */
  async record(event: AuditRecord, client: TransactionClient = this.prisma.db): Promise<void> {
    await client.$executeRaw`INSERT INTO "audit_events" (${COLUMNS}) VALUES ${this.row(event)}`;
  }

  /**
   * For events with nothing to commit with (reads): events that arrive while an INSERT is in
   * flight share the next, multi-row one (group commit). The caller still waits until its event
   * is stored, and gets the error if it could not be.
   */
  recordBatched(event: AuditRecord): Promise<void> {
    const row = this.row(event);
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, done: (error) => (error ? reject(error) : resolve()) });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0, 500);
        try {
          await this.prisma.client.$executeRaw`INSERT INTO "audit_events" (${COLUMNS}) VALUES ${Prisma.join(batch.map((entry) => entry.row))}`;
          for (const entry of batch) entry.done();
        } catch (error) {
          for (const entry of batch) entry.done(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** The channel is read here, in the caller's request context (the batch flushes outside it). */
  private row(event: AuditRecord): Prisma.Sql {
    const channel = event.channel ?? RequestContext.current()?.channel ?? 'mcp';
    const args = event.arguments === undefined ? null : JSON.stringify(event.arguments);
    return Prisma.sql`(${randomUUID()}::uuid, ${channel}::"Channel", ${event.workspaceId ?? null}::uuid, ${event.userId ?? null}::uuid,
      ${event.tokenId ?? null}, ${event.clientName ?? null}, ${event.clientVersion ?? null}, ${event.method}, ${event.target ?? null},
      ${args}::jsonb, ${event.outcome}, ${event.errorCode ?? null}, ${event.durationMs}, ${event.traceId ?? null})`;
  }
}

const COLUMNS = Prisma.raw(
  '"id", "channel", "workspace_id", "user_id", "token_id", "client_name", "client_version", "method", "target", "arguments", "outcome", "error_code", "duration_ms", "trace_id"',
);
