var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Global, Module } from '@nestjs/common';
import { MCP_IDEMPOTENCY_STORE, MCP_REQUEST_STATE_STORE } from '../mcp/index.js';
import { ExpiredRowsCleanup } from './expired-rows.cleanup.js';
import { IDEMPOTENCY_CONFIG, idempotencyConfigFromEnv } from './idempotency.config.js';
import { PrismaIdempotencyStore } from './prisma-idempotency.store.js';
import { PrismaRequestStateStore } from './prisma-request-state.store.js';
/**
 * Database-backed idempotency keys (MCP tool calls and REST writes) and one-time multi round-trip
 * state, shared by every replica.
 * Global so that the MCP layer finds the stores under its tokens.
 */
let IdempotencyModule = class IdempotencyModule {
};
IdempotencyModule = __decorate([
    Global(),
    Module({
        providers: [
            { provide: IDEMPOTENCY_CONFIG, useFactory: () => idempotencyConfigFromEnv() },
            PrismaIdempotencyStore,
            PrismaRequestStateStore,
            ExpiredRowsCleanup,
            { provide: MCP_IDEMPOTENCY_STORE, useExisting: PrismaIdempotencyStore },
            { provide: MCP_REQUEST_STATE_STORE, useExisting: PrismaRequestStateStore },
        ],
        // PrismaIdempotencyStore: for RestIdempotencyInterceptor, which @IdempotentRoute() attaches to REST writes.
        exports: [MCP_IDEMPOTENCY_STORE, MCP_REQUEST_STATE_STORE, PrismaIdempotencyStore],
    })
], IdempotencyModule);
export { IdempotencyModule };
//# sourceMappingURL=idempotency.module.js.map