var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { RequestContext } from '../context/request-context.js';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../database/prisma.service.js';
import { isDatabaseUnavailable } from '../database/database-unavailable.js';
import { SqlTransactionScope } from '../database/sql-transaction.js';
import { boundedJson, boundedText, cutText, MAX_TARGET_CHARS } from './audit-bounds.js';
/**
 * Writes audit events: in the caller's open transaction, if any, so they commit with the write.
 * One parameterised INSERT per event, sent straight to the driver (`PrismaService.sql`): it runs
 * on every MCP call, and the ORM's per-query work would cost as much as the INSERT itself (see
 * bench/README.md).
 */
let AuditService = class AuditService {
    prisma;
    logger = new Logger('Audit');
    waiting = [];
    flushing = false;
    constructor(prisma) {
        this.prisma = prisma;
    }
    /**
     * In the open transaction of the calling code, if any (sent with its other waiting writes just
     * before it commits), else on its own.
     */
    async record(event) {
        await this.prisma.sqlBeforeCommit(Prisma.sql `INSERT INTO "audit_events" (${COLUMNS}) VALUES ${this.row(event)}`);
    }
    /**
     * For events with nothing to commit with (reads): events that arrive while an INSERT is in
     * flight share the next, multi-row one (group commit). The caller still waits until its event
     * is stored, and gets the error if it could not be. A row the database refuses fails only its
     * own caller: the others of its batch are stored anyway.
     */
    recordBatched(event) {
        const row = this.row(event);
        return new Promise((resolve, reject) => {
            this.waiting.push({ row, event, done: (error) => (error ? reject(error) : resolve()) });
            if (!this.flushing)
                void this.flush();
        });
    }
    async flush() {
        // The batch belongs to many callers: it must never join the transaction of the one whose
        // event started the flush.
        await SqlTransactionScope.outside(() => this.flushAll());
    }
    async flushAll() {
        this.flushing = true;
        try {
            while (this.waiting.length)
                await this.insert(this.waiting.splice(0, 500));
        }
        finally {
            this.flushing = false;
        }
    }
    /**
     * One INSERT for the batch; if the database refuses it, each half again, down to the row it
     * refuses (a few round trips for one bad row among hundreds, instead of one per row). An
     * unreachable database fails the whole batch at once: retrying would only wait longer.
     */
    async insert(batch) {
        try {
            await this.prisma.sql(Prisma.sql `INSERT INTO "audit_events" (${COLUMNS}) VALUES ${Prisma.join(batch.map((entry) => entry.row))}`);
            for (const entry of batch)
                entry.done();
        }
        catch (error) {
            if (isDatabaseUnavailable(error)) {
                for (const entry of batch)
                    entry.done(error);
            }
            else if (batch.length === 1) {
                const { method, target } = batch[0].event;
                this.logger.error(`Audit event refused by the database (${method} ${boundedText(target, 100) ?? ''}): ${databaseMessage(error)}`);
                batch[0].done(error);
            }
            else {
                const half = Math.ceil(batch.length / 2);
                await this.insert(batch.slice(0, half));
                await this.insert(batch.slice(half));
            }
        }
    }
    /**
     * The channel is read here, in the caller's request context (the batch flushes outside it).
     * Every client-controlled value is made storable and bounded, so a hostile one cannot make
     * the INSERT fail (and with it the other rows of its batch).
     */
    row(event) {
        const channel = event.channel ?? RequestContext.current()?.channel ?? 'mcp';
        return Prisma.sql `(${randomUUID()}::uuid, ${channel}::"Channel", ${event.workspaceId ?? null}::uuid, ${event.userId ?? null}::uuid,
      ${boundedText(event.tokenId)}, ${boundedText(event.clientName)}, ${boundedText(event.clientVersion)}, ${boundedText(event.method)},
      ${boundedText(event.target, MAX_TARGET_CHARS)}, ${boundedJson(event.arguments)}::jsonb, ${event.outcome}, ${boundedText(event.errorCode)},
      ${event.durationMs}, ${boundedText(event.traceId)})`;
    }
};
AuditService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [PrismaService])
], AuditService);
export { AuditService };
function databaseMessage(error) {
    const message = error instanceof Error ? error.message : String(error);
    // The last line of a Prisma error is the database's own message; it may quote the value.
    return cutText(message.trim().split('\n').filter(Boolean).at(-1) ?? message, 300);
}
const COLUMNS = Prisma.raw('"id", "channel", "workspace_id", "user_id", "token_id", "client_name", "client_version", "method", "target", "arguments", "outcome", "error_code", "duration_ms", "trace_id"');
//# sourceMappingURL=audit.service.js.map