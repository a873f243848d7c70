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
import { PrismaService } from '../database/prisma.service.js';
import { IDEMPOTENCY_CONFIG } from './idempotency.config.js';
/**
 * Deletes expired idempotency records and request-state uses now and then. Only housekeeping:
 * an expired key is reused on its next claim and an expired `requestState` fails its own expiry
 * check, so correctness never waits for this. Off in tests (see `idempotencyConfigFromEnv`).
 */
let ExpiredRowsCleanup = class ExpiredRowsCleanup {
    prisma;
    config;
    logger = new Logger('IdempotencyCleanup');
    timer;
    constructor(prisma, config) {
        this.prisma = prisma;
        this.config = config;
    }
    onApplicationBootstrap() {
        if (!this.config.cleanupIntervalMs)
            return;
        this.timer = setInterval(() => void this.run(), this.config.cleanupIntervalMs);
        this.timer.unref(); // never what keeps the process alive
    }
    onApplicationShutdown() {
        clearInterval(this.timer);
    }
    /** Deletes what expired; returns how many rows went. */
    async run() {
        try {
            const records = await this.prisma.client.$executeRaw `DELETE FROM idempotency_records WHERE expires_at < (now() AT TIME ZONE 'UTC')`;
            const uses = await this.prisma.client.$executeRaw `DELETE FROM request_state_uses WHERE expires_at < (now() AT TIME ZONE 'UTC')`;
            return records + uses;
        }
        catch (error) {
            this.logger.warn(`Cleanup of expired idempotency rows failed (retried next time): ${error.message}`);
            return 0;
        }
    }
};
ExpiredRowsCleanup = __decorate([
    Injectable(),
    __param(1, Inject(IDEMPOTENCY_CONFIG)),
    __metadata("design:paramtypes", [PrismaService, Object])
], ExpiredRowsCleanup);
export { ExpiredRowsCleanup };
//# sourceMappingURL=expired-rows.cleanup.js.map