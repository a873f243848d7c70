var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseHealthIndicator } from './database.health.js';
import { DatabaseUnavailableFilter } from './database-unavailable.filter.js';
import { HealthController } from './health.controller.js';
import { ShutdownState } from './shutdown.state.js';
/**
 * Liveness and readiness (`/health/live`, `/health/ready`), the REST answer to a database outage
 * (`503` + `Retry-After`), and the shutdown state that `main.ts` sets on SIGTERM
 * (see `graceful-shutdown.ts`).
 */
let HealthModule = class HealthModule {
};
HealthModule = __decorate([
    Module({
        imports: [TerminusModule.forRoot()],
        controllers: [HealthController],
        providers: [DatabaseHealthIndicator, ShutdownState, { provide: APP_FILTER, useClass: DatabaseUnavailableFilter }],
        exports: [ShutdownState],
    })
], HealthModule);
export { HealthModule };
//# sourceMappingURL=health.module.js.map