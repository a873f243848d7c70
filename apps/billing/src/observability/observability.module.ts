import { Module, RequestMethod, type MiddlewareConsumer, type NestModule, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { installObservabilityLogger } from './observability.logger.js';
import { RequestLogContextMiddleware, requestLogMiddleware } from './request-log.js';
import { startTracing, type TracingLease } from './tracing.js';

// Installed on import, before NestFactory.create() runs: every line the application writes,
// the bootstrap ones included, goes through the redacting logger (JSON or pretty: LOG_FORMAT).
installObservabilityLogger();

/**
 * Tracing and structured logs for the application, with no edit to `main.ts`:
 * - OpenTelemetry SDK with OTLP/HTTP export, installed while the module is created (before any
 *   request) only when `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_TRACES_EXPORTER` asks for it, and
 *   flushed on shutdown. The MCP layer's spans (`@nest-mcp/core`, `src/server/mcp-tracing.ts`) are no-ops
 *   without it.
 * - JSON log lines (`ObservabilityLogger`) with secrets redacted, each tied to its request:
 *   `X-Request-Id` (the caller's, or a new UUID, echoed in the answer), JSON-RPC id, method and
 *   tool; one access line per request, also for those the MCP body reader refuses.
 */
@Module({})
export class ObservabilityModule implements NestModule, OnApplicationShutdown {
  private readonly tracing?: TracingLease;

  constructor(adapterHost: HttpAdapterHost) {
    this.tracing = startTracing('nest-mcp-billing');
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
