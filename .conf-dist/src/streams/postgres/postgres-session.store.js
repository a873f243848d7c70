var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service.js';
/**
 * Sessions in `mcp_sessions`, read by every replica. Always on the pool's own connections
 * (`prisma.client`), never in a request's transaction: a session outlives any call, and a call
 * that rolls back must not take `logging/setLevel` or a subscription with it. An expired row is
 * unknown at once (`expires_at` is checked on read); the cleanup deletes it later.
 */
let PostgresSessionStore = class PostgresSessionStore {
    prisma;
    constructor(prisma) {
        this.prisma = prisma;
    }
    async create(session) {
        await this.prisma.client.mcpSession.create({
            data: {
                id: session.id,
                callerKey: session.callerKey,
                protocolVersion: session.protocolVersion,
                ...(session.clientInfo ? { clientInfo: session.clientInfo } : {}),
                clientCapabilities: session.clientCapabilities,
                ...(session.logLevel ? { logLevel: session.logLevel } : {}),
                subscriptions: session.subscriptions,
                createdAt: session.createdAt,
                expiresAt: session.expiresAt,
            },
        });
    }
    async get(id) {
        const row = await this.prisma.client.mcpSession.findFirst({ where: { id, expiresAt: { gt: new Date() } } });
        if (!row)
            return undefined;
        return {
            id: row.id,
            callerKey: row.callerKey,
            protocolVersion: row.protocolVersion,
            ...(row.clientInfo ? { clientInfo: row.clientInfo } : {}),
            clientCapabilities: row.clientCapabilities,
            ...(row.logLevel ? { logLevel: row.logLevel } : {}),
            subscriptions: row.subscriptions,
            createdAt: row.createdAt,
            expiresAt: row.expiresAt,
        };
    }
    async update(id, patch) {
        const data = {
            ...('logLevel' in patch ? { logLevel: patch.logLevel ?? null } : {}),
            ...(patch.subscriptions ? { subscriptions: patch.subscriptions } : {}),
            ...(patch.expiresAt ? { expiresAt: patch.expiresAt } : {}),
        };
        if (!Object.keys(data).length)
            return;
        // updateMany: an unknown (or already expired) id is a no-op, not an error.
        await this.prisma.client.mcpSession.updateMany({ where: { id, expiresAt: { gt: new Date() } }, data });
    }
    async delete(id) {
        await this.prisma.client.mcpSession.deleteMany({ where: { id } });
    }
    async subscribersOf(uri) {
        const rows = await this.prisma.client.mcpSession.findMany({
            where: { subscriptions: { has: uri }, expiresAt: { gt: new Date() } },
            select: { id: true },
        });
        return rows.map((row) => row.id);
    }
};
PostgresSessionStore = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [PrismaService])
], PostgresSessionStore);
export { PostgresSessionStore };
//# sourceMappingURL=postgres-session.store.js.map