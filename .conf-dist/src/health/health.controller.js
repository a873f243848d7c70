var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { Public } from '../identity/public.decorator.js';
import { DatabaseHealthIndicator } from './database.health.js';
import { ShutdownState } from './shutdown.state.js';
/**
 * Probes for orchestrators and load balancers, without a token:
 * - `GET /health/live`: the process runs and serves HTTP (no database: a database outage must not
 *   get healthy replicas restarted);
 * - `GET /health/ready`: this replica should get traffic: the database answers within a short
 *   timeout and no shutdown has begun. `503` otherwise.
 */
let HealthController = class HealthController {
    health;
    indicators;
    database;
    shutdown;
    constructor(health, indicators, database, shutdown) {
        this.health = health;
        this.indicators = indicators;
        this.database = database;
        this.shutdown = shutdown;
    }
    live() {
        return this.health.check([() => this.indicators.check('process').up({ uptimeSeconds: Math.round(process.uptime()) })]);
    }
    ready() {
        const shutdown = this.indicators.check('shutdown');
        // Shutting down: not ready whatever the database says (and no query for a pool about to close).
        if (this.shutdown.shuttingDown)
            return this.health.check([() => shutdown.down({ message: 'shutting down' })]);
        return this.health.check([() => shutdown.up(), () => this.database.ping()]);
    }
};
__decorate([
    Get('live'),
    HealthCheck(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], HealthController.prototype, "live", null);
__decorate([
    Get('ready'),
    HealthCheck(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], HealthController.prototype, "ready", null);
HealthController = __decorate([
    ApiTags('health'),
    Public(),
    Controller('health'),
    __metadata("design:paramtypes", [HealthCheckService,
        HealthIndicatorService,
        DatabaseHealthIndicator,
        ShutdownState])
], HealthController);
export { HealthController };
//# sourceMappingURL=health.controller.js.map