import { Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS, type ResolvedMcpOptions } from '@nest-mcp/core/extensions';
import { PeriodicCleanup } from '@nest-mcp/prisma';
import { PrismaService } from '../../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import { IDEMPOTENCY_CONFIG, type IdempotencyConfig } from '../../idempotency/idempotency.config.js';

/**
 * Beyond the run's own transaction limit (`tasks.maxRunMs` plus the call hook's 5 s margin): a
 * pending file older than the run limit plus this belongs to no run still able to commit it.
 */
const MARGIN_MS = 60_000;

/**
 * Deletes the pending files (and their parts) of exports that died without ending their call: a
 * crash or a kill between two parts, where nothing ran to discard them. Every other end of a call
 * discards its file itself (`AttachmentStorage.createPending`). A file is pending only while its
 * task runs, and no run outlives `tasks.maxRunMs` (the worker stops it; its transaction is rolled
 * back a few seconds later): one older than that, with a margin, is garbage. Runs on the app's
 * housekeeping schedule, with @nest-mcp/prisma's expired rows (`IDEMPOTENCY_CLEANUP_MINUTES`).
 */
@Injectable()
export class PendingAttachmentsCleanup extends PeriodicCleanup {
  private readonly olderThanMs: number;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(IDEMPOTENCY_CONFIG) housekeeping: IdempotencyConfig,
    @Inject(MCP_OPTIONS) mcp: ResolvedMcpOptions,
  ) {
    super({ loggerName: 'PendingAttachmentsCleanup', rows: 'pending attachments', intervalMs: housekeeping.cleanupIntervalMs });
    this.olderThanMs = mcp.tasks.maxRunMs + MARGIN_MS;
  }

  // The database's clock, which wrote `created_at` (UTC).
  protected async deleteExpired(): Promise<number> {
    const { rowCount } = await this.prisma.sql(Prisma.sql`
      DELETE FROM attachments
      WHERE status = 'pending' AND created_at < (now() AT TIME ZONE 'UTC') - make_interval(secs => ${this.olderThanMs / 1000}::float8)`);
    return rowCount;
  }
}
