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
import { Inject, Injectable, Logger } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service.js';
import { STREAMS_CONFIG } from '../streams.config.js';
/**
 * Deletes expired sessions and events older than the retention now and then. Only housekeeping:
 * the stores never answer with an expired row, so correctness never waits for this. Off in tests
 * and with Redis (keys expire there by themselves).
 */
let StreamRowsCleanup = class StreamRowsCleanup {
    prisma;
    config;
    logger = new Logger('McpStreamsCleanup');
    timer;
    constructor(prisma, config) {
        this.prisma = prisma;
        this.config = config;
    }
    onApplicationBootstrap() {
        if (!this.config.cleanupIntervalMs || this.config.redisUrl)
            return;
        this.timer = setInterval(() => void this.run(), this.config.cleanupIntervalMs);
        this.timer.unref();
    }
    onApplicationShutdown() {
        clearInterval(this.timer);
    }
    /** Deletes what expired; returns how many rows went. */
    async run(now = new Date()) {
        try {
            const { count: sessions } = await this.prisma.client.mcpSession.deleteMany({ where: { expiresAt: { lte: now } } });
            const since = new Date(now.getTime() - this.config.eventRetentionMs);
            const { count: events } = await this.prisma.client.mcpStreamEvent.deleteMany({ where: { createdAt: { lt: since } } });
            return sessions + events;
        }
        catch (error) {
            this.logger.warn(`Cleanup of expired stream rows failed (retried next time): ${error.message}`);
            return 0;
        }
    }
};
StreamRowsCleanup = __decorate([
    Injectable(),
    __param(1, Inject(STREAMS_CONFIG)),
    __metadata("design:paramtypes", [PrismaService, Object])
], StreamRowsCleanup);
export { StreamRowsCleanup };
//# sourceMappingURL=stream-rows.cleanup.js.map