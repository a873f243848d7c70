import { Injectable } from '@nestjs/common';
import { RequestContext } from '../context/request-context.js';
import type { Channel, Prisma } from '../generated/prisma/client.js';
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

/** Writes audit events: in the caller's transaction when given one, so they commit with the write. */
@Injectable()
export class AuditService {
  constructor(private readonly prisma: PrismaService) {}

  async record(event: AuditRecord, client: TransactionClient = this.prisma.client as unknown as TransactionClient): Promise<void> {
    await client.auditEvent.create({
      data: {
        channel: event.channel ?? RequestContext.current()?.channel ?? 'mcp',
        workspaceId: event.workspaceId,
        userId: event.userId,
        tokenId: event.tokenId,
        clientName: event.clientName,
        clientVersion: event.clientVersion,
        method: event.method,
        target: event.target,
        arguments: (event.arguments ?? undefined) as Prisma.InputJsonValue | undefined,
        outcome: event.outcome,
        errorCode: event.errorCode,
        durationMs: event.durationMs,
        traceId: event.traceId,
      },
    });
  }
}
