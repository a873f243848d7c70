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
import { HealthIndicatorService } from '@nestjs/terminus';
import { PrismaService } from '../database/prisma.service.js';
import { readEnvironment } from '../config/environment.js';
/** How long readiness waits for `SELECT 1` (a pool connection included) before it says "down". */
export function readinessTimeoutMs() {
    return readEnvironment().healthDatabaseTimeoutMs;
}
/**
 * The database answers `SELECT 1` within a short timeout. Concurrent probes share one query, and
 * an answer is reused for 500 ms, so a burst of probes costs one round trip.
 */
let DatabaseHealthIndicator = class DatabaseHealthIndicator {
    indicators;
    prisma;
    constructor(indicators, prisma) {
        this.indicators = indicators;
        this.prisma = prisma;
    }
    ping(key = 'database') {
        return this.indicators
            .check(key)
            .attempt(async () => {
            await this.prisma.client.$queryRaw `SELECT 1`;
        })
            .withTimeout(readinessTimeoutMs())
            .cacheFor(500);
    }
};
DatabaseHealthIndicator = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [HealthIndicatorService,
        PrismaService])
], DatabaseHealthIndicator);
export { DatabaseHealthIndicator };
//# sourceMappingURL=database.health.js.map