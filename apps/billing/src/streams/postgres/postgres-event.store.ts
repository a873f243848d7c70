import { Inject, Injectable } from '@nestjs/common';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { McpEventStore } from '@nest-mcp/core';
import { PrismaService } from '../../database/prisma.service.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { eventId, parseEventId, sessionOfStream } from '../stream-event-id.js';
import { STREAMS_CONFIG, type StreamsConfig } from '../streams.config.js';

/**
 * Replayable SSE events in `mcp_stream_events`, shared by every replica. The position in an event
 * id is the table's sequence (`seq`), unique across replicas and increasing, so "after" is `>`.
 * Bounded by age (rows older than the retention are never replayed; the cleanup deletes them) and
 * per stream (at most `maxEventsPerStream`, the oldest deleted on append).
 * Read and written outside any request's transaction (`outsideTransaction`): an event is
 * replayable on every replica as soon as it is sent, while the call that sent it still runs, and
 * stays so if that call rolls back or its replica dies.
 */
@Injectable()
export class PostgresEventStore implements McpEventStore {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(STREAMS_CONFIG) private readonly config: StreamsConfig,
  ) {}

  append(streamId: string, message: JSONRPCMessage): Promise<string> {
    return this.prisma.outsideTransaction(() => this.insert(streamId, message));
  }

  replayAfter(lastEventId: string, sessionId: string) {
    return this.prisma.outsideTransaction(() => this.after(lastEventId, sessionId));
  }

  eventsOf(streamId: string) {
    return this.prisma.outsideTransaction(async () => {
      const rows = await this.prisma.client.mcpStreamEvent.findMany({
        where: { streamId, createdAt: { gte: new Date(Date.now() - this.config.eventRetentionMs) } },
        orderBy: { seq: 'asc' },
        select: { seq: true, message: true },
      });
      return rows.map((row) => ({ id: eventId(streamId, row.seq.toString()), message: row.message as unknown as JSONRPCMessage }));
    });
  }

  private async insert(streamId: string, message: JSONRPCMessage): Promise<string> {
    const row = await this.prisma.client.mcpStreamEvent.create({
      // createdAt from this replica's clock, in UTC like every other timestamp the stores compare.
      data: { streamId, sessionId: sessionOfStream(streamId), message: message as unknown as Prisma.InputJsonValue, createdAt: new Date() },
      select: { seq: true },
    });
    // The per-stream bound, as Redis's MAXLEN: the oldest beyond it go (a long-lived GET stream).
    await this.prisma.client.$executeRaw`
      DELETE FROM mcp_stream_events WHERE stream_id = ${streamId} AND seq < (
        SELECT seq FROM mcp_stream_events WHERE stream_id = ${streamId} ORDER BY seq DESC OFFSET ${this.config.maxEventsPerStream - 1} LIMIT 1)`;
    return eventId(streamId, row.seq.toString());
  }

  private async after(lastEventId: string, sessionId: string) {
    const parsed = parseEventId(lastEventId);
    if (!parsed || !/^[1-9][0-9]{0,17}$/.test(parsed.position) || !sessionId) return undefined;
    const since = new Date(Date.now() - this.config.eventRetentionMs);
    const last = await this.prisma.client.mcpStreamEvent.findFirst({
      where: { seq: BigInt(parsed.position), streamId: parsed.streamId, sessionId, createdAt: { gte: since } },
      select: { seq: true },
    });
    if (!last) return undefined;
    const rows = await this.prisma.client.mcpStreamEvent.findMany({
      where: { streamId: parsed.streamId, seq: { gt: last.seq }, createdAt: { gte: since } },
      orderBy: { seq: 'asc' },
      select: { seq: true, message: true },
    });
    return {
      streamId: parsed.streamId,
      events: rows.map((row) => ({ id: eventId(parsed.streamId, row.seq.toString()), message: row.message as unknown as JSONRPCMessage })),
    };
  }
}
