import { Logger } from '@nestjs/common';
import { context, diag, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';

export type TraceExporterKind = 'otlp' | 'console';

/**
 * Which exporters the standard OpenTelemetry variables ask for: `OTEL_TRACES_EXPORTER`
 * (`otlp`, `console`, `none`; comma-separated), or OTLP when only an endpoint is given
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`). Nothing when
 * `OTEL_SDK_DISABLED=true`. Empty: tracing stays the API's no-op, at no cost.
 */
export function traceExportersFromEnv(env: NodeJS.ProcessEnv): TraceExporterKind[] {
  // Not `booleanEnv`: the OpenTelemetry specification defines this variable's boolean. Only "true",
  // in any case, disables; it forbids other true spellings, and any other value means "false"
  // (a warning at most, never a refusal), so `1`, `yes` or a typo leave tracing as configured.
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return [];
  const named = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (named.includes('none')) return [];
  if (!named.length) return env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? ['otlp'] : [];
  return (['otlp', 'console'] as const).filter((kind) => named.includes(kind));
}

interface Installed {
  provider: NodeTracerProvider;
  users: number;
}

let installed: Installed | undefined;

/** A use of the process-wide tracing SDK; `release()` flushes and uninstalls it after its last user. */
export interface TracingLease {
  release(): Promise<void>;
}

/**
 * Installs the OpenTelemetry SDK for this process when the settings ask for an exporter
 * (`exporters`, see `traceExportersFromEnv`): a `NodeTracerProvider` with batched export, the
 * AsyncLocalStorage context manager and W3C propagation (`traceparent`, `tracestate`,
 * `baggage`). Sampling follows `OTEL_TRACES_SAMPLER` (default: parent-based, always on),
 * `service.name` is `OTEL_SERVICE_NAME` (else `defaultServiceName`), the OTLP endpoint and
 * headers come from the usual `OTEL_EXPORTER_OTLP_*` variables (OTLP/HTTP, JSON encoding).
 * Leaves alone an SDK that something else installed first. Shared by every application in the
 * process (tests start several); undefined when nothing is installed.
 */
export function startTracing(defaultServiceName: string, exporters: readonly TraceExporterKind[]): TracingLease | undefined {
  if (!exporters.length) return undefined;
  if (!installed) {
    const logger = new Logger('OpenTelemetry');
    const spanProcessors: SpanProcessor[] = exporters.map(
      (kind) => new BatchSpanProcessor(kind === 'otlp' ? new OTLPTraceExporter() : new ConsoleSpanExporter()),
    );
    const resource = defaultResource()
      .merge(resourceFromAttributes({ 'service.name': defaultServiceName }))
      .merge(detectResources({ detectors: [envDetector] }));
    const provider = new NodeTracerProvider({ resource, spanProcessors });
    if (!trace.setGlobalTracerProvider(provider)) {
      logger.warn('An OpenTelemetry SDK is already registered in this process: using it, not installing another');
      void provider.shutdown();
      return undefined;
    }
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(
      new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
    );
    // Export failures (collector down, refused) are worth a warning; the SDK's chatter is not.
    diag.setLogger(
      {
        error: (message) => logger.warn(message),
        warn: (message) => logger.warn(message),
        info: () => undefined,
        debug: () => undefined,
        verbose: () => undefined,
      },
      DiagLogLevel.WARN,
    );
    installed = { provider, users: 0 };
    logger.log(`Tracing on: exporting spans (${exporters.join(', ')})`);
  }
  const lease = installed;
  lease.users++;
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      if (--lease.users > 0) return;
      if (installed === lease) installed = undefined;
      try {
        await lease.provider.shutdown(); // flushes what the batch still holds
      } finally {
        trace.disable();
        context.disable();
        propagation.disable();
        diag.disable();
      }
    },
  };
}
