import { Inject, Module, RequestMethod, type MiddlewareConsumer, type NestModule, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { OBSERVABILITY_CONFIG, type ObservabilityConfig } from './observability.config.js';
import { ensureObservabilityLogger } from './observability.logger.js';
import { RequestLogContextMiddleware, requestLogMiddleware } from './request-log.js';
import { startTracing, type TracingLease } from './tracing.js';

/**
 * Tracing and structured logs for the application:
 * - OpenTelemetry SDK with OTLP/HTTP export, installed while the module is created (before any
 *   request) only when `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_TRACES_EXPORTER` asks for it
 *   (`OBSERVABILITY_CONFIG`), and flushed on shutdown. The MCP layer's spans (`@nest-mcp/core`,
 *   `src/server/mcp-tracing.ts`) are no-ops without it.
 * - JSON log lines (`ObservabilityLogger`; LOG_FORMAT) with secrets redacted, each tied to its request:
 *   `X-Request-Id` (the caller's, or a new UUID, echoed in the answer), JSON-RPC id, method and
 *   tool; one access line per request, also for those the MCP body reader refuses.
 */
@Module({})
export class ObservabilityModule implements NestModule, OnApplicationShutdown {
  private readonly tracing?: TracingLease;

  constructor(adapterHost: HttpAdapterHost, @Inject(OBSERVABILITY_CONFIG) config: ObservabilityConfig) {
    // main.ts installed it before anything else ran; an application booted otherwise (tests) gets it here.
    ensureObservabilityLogger(config.logFormat);
    this.tracing = startTracing('nest-mcp-billing', config.traceExporters);
    // The HTTP adapter exists while modules are created, before `configureApp()` mounts the MCP
    // body reader: this middleware comes first, so refused requests are logged too.
    adapterHost.httpAdapter?.use(requestLogMiddleware());
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestLogContextMiddleware).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.tracing?.release();
  }
}
