var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Inject, Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service.js';
import { eventId, parseEventId, sessionOfStream } from '../stream-event-id.js';
import { STREAMS_CONFIG } from '../streams.config.js';
/**
 * Replayable SSE events in `mcp_stream_events`, shared by every replica. The position in an event
 * id is the table's sequence (`seq`), unique across replicas and increasing, so "after" is `>`.
 * Bounded by age (rows older than the retention are never replayed; the cleanup deletes them) and
 * per stream (at most `maxEventsPerStream`, the oldest deleted on append).
 * Written on the pool's own connections: an event already sent stays replayable even if the
 * call that sent it rolls back.
 */
let PostgresEventStore = class PostgresEventStore {
    prisma;
    config;
    constructor(prisma, config) {
        this.prisma = prisma;
        this.config = config;
    }
    async append(streamId, message) {
        const row = await this.prisma.client.mcpStreamEvent.create({
            // createdAt from this replica's clock, in UTC like every other timestamp the stores compare.
            data: { streamId, sessionId: sessionOfStream(streamId), message: message, createdAt: new Date() },
            select: { seq: true },
        });
        // The per-stream bound, as Redis's MAXLEN: the oldest beyond it go (a long-lived GET stream).
        await this.prisma.client.$executeRaw `
      DELETE FROM mcp_stream_events WHERE stream_id = ${streamId} AND seq < (
        SELECT seq FROM mcp_stream_events WHERE stream_id = ${streamId} ORDER BY seq DESC OFFSET ${this.config.maxEventsPerStream - 1} LIMIT 1)`;
        return eventId(streamId, row.seq.toString());
    }
    async replayAfter(lastEventId, sessionId) {
        const parsed = parseEventId(lastEventId);
        if (!parsed || !/^[1-9][0-9]{0,17}$/.test(parsed.position) || !sessionId)
            return undefined;
        const since = new Date(Date.now() - this.config.eventRetentionMs);
        const last = await this.prisma.client.mcpStreamEvent.findFirst({
            where: { seq: BigInt(parsed.position), streamId: parsed.streamId, sessionId, createdAt: { gte: since } },
            select: { seq: true },
        });
        if (!last)
            return undefined;
        const rows = await this.prisma.client.mcpStreamEvent.findMany({
            where: { streamId: parsed.streamId, seq: { gt: last.seq }, createdAt: { gte: since } },
            orderBy: { seq: 'asc' },
            select: { seq: true, message: true },
        });
        return {
            streamId: parsed.streamId,
            events: rows.map((row) => ({ id: eventId(parsed.streamId, row.seq.toString()), message: row.message })),
        };
    }
};
PostgresEventStore = __decorate([
    Injectable(),
    __param(1, Inject(STREAMS_CONFIG)),
    __metadata("design:paramtypes", [PrismaService, Object])
], PostgresEventStore);
export { PostgresEventStore };
//# sourceMappingURL=postgres-event.store.js.map