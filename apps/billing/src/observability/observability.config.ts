import { resolveLogFormat, type LogFormat } from './observability.logger.js';
import { traceExportersFromEnv, type TraceExporterKind } from './tracing.js';

/** Logs and tracing (injected by {@link OBSERVABILITY_CONFIG}), validated at boot. */
export interface ObservabilityConfig {
  /** `LOG_FORMAT`, or the default for this process's output (see `resolveLogFormat`). */
  readonly logFormat: LogFormat;
  /** The exporters the standard `OTEL_*` variables ask for (see `traceExportersFromEnv`); empty: no tracing. */
  readonly traceExporters: TraceExporterKind[];
}

export const OBSERVABILITY_CONFIG = Symbol('OBSERVABILITY_CONFIG');

/**
 * `LOG_FORMAT` and the OpenTelemetry variables that turn tracing on. The exporters read their
 * endpoint, headers, sampler and service name from the standard `OTEL_*` variables themselves.
 */
export function observabilityConfigFromEnv(env: NodeJS.ProcessEnv): ObservabilityConfig {
  return { logFormat: resolveLogFormat(env), traceExporters: traceExportersFromEnv(env) };
}
