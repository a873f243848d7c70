var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Module, RequestMethod } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { installObservabilityLogger } from './observability.logger.js';
import { RequestLogContextMiddleware, requestLogMiddleware } from './request-log.js';
import { startTracing } from './tracing.js';
// Installed on import, before NestFactory.create() runs: every line the application writes,
// the bootstrap ones included, goes through the redacting logger (JSON or pretty: LOG_FORMAT).
installObservabilityLogger();
/**
 * Tracing and structured logs for the application, with no edit to `main.ts`:
 * - OpenTelemetry SDK with OTLP/HTTP export, installed while the module is created (before any
 *   request) only when `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_TRACES_EXPORTER` asks for it, and
 *   flushed on shutdown. The MCP layer's spans (`src/mcp/server/mcp-tracing.ts`) are no-ops
 *   without it.
 * - JSON log lines (`ObservabilityLogger`) with secrets redacted, each tied to its request:
 *   `X-Request-Id` (the caller's, or a new UUID, echoed in the answer), JSON-RPC id, method and
 *   tool; one access line per request, also for those the MCP body reader refuses.
 */
let ObservabilityModule = class ObservabilityModule {
    tracing;
    constructor(adapterHost) {
        this.tracing = startTracing('nest-mcp-billing');
        // The HTTP adapter exists while modules are created, before `configureApp()` mounts the MCP
        // body reader: this middleware comes first, so refused requests are logged too.
        adapterHost.httpAdapter?.use(requestLogMiddleware());
    }
    configure(consumer) {
        consumer.apply(RequestLogContextMiddleware).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
    }
    async onApplicationShutdown() {
        await this.tracing?.release();
    }
};
ObservabilityModule = __decorate([
    Module({}),
    __metadata("design:paramtypes", [HttpAdapterHost])
], ObservabilityModule);
export { ObservabilityModule };
//# sourceMappingURL=observability.module.js.map