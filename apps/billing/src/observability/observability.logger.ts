import { inspect } from 'node:util';
import { ConsoleLogger, Logger, type LogLevel } from '@nestjs/common';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { redactError, redactText, redactValue } from './log-redaction.js';
import { writeLogLine } from './log-writer.js';
import { currentRequestLogFields } from './request-log.js';

export type LogFormat = 'json' | 'pretty';

/** Logger contexts of Nest's start-up lines ("… dependencies initialized", "Mapped {/mcp, POST} route"). */
const FRAMEWORK_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

/**
 * `LOG_FORMAT=json|pretty`; unset: pretty on an interactive terminal outside production
 * (`npm start` by hand), JSON lines everywhere else (containers, CI, log shippers).
 */
export function resolveLogFormat(env: NodeJS.ProcessEnv, interactive = !!process.stdout.isTTY): LogFormat {
  const chosen = env.LOG_FORMAT?.trim().toLowerCase();
  if (chosen === 'json' || chosen === 'pretty') return chosen;
  return interactive && env.NODE_ENV !== 'production' ? 'pretty' : 'json';
}

/**
 * The application's Nest logger: Nest's `ConsoleLogger` (so levels, `NEST_LOG_LEVEL` and the
 * pretty format behave as usual) with three additions. JSON lines are written buffered, off the
 * request path (`log-writer.ts`). Every message, structured field and stack
 * is redacted (`log-redaction.ts`) before it is printed, in both formats. JSON lines carry the
 * request id, JSON-RPC id, method and tool of the request being served, and the trace id when a
 * span is active.
 */
export class ObservabilityLogger extends ConsoleLogger {
  constructor(
    readonly format: LogFormat,
    logLevels?: LogLevel[],
  ) {
    super({ json: format === 'json', flattenParams: true, ...(logLevels ? { logLevels } : {}) });
  }

  /** Nest's boot chatter (a line per module and per route) is logged at debug, so the lines that matter stay visible. */
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    if (typeof context === 'string' && FRAMEWORK_CHATTER.has(context)) return this.debug(message, ...optionalParams);
    super.log(message, ...optionalParams);
  }

  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, unknown>,
  ): void {
    const safe = messages.map((message) => redactValue(this.resolveMessage(message)));
    const stack = typeof errorStack === 'string' ? redactText(errorStack) : errorStack;
    const safeParams = params && (redactValue(params) as Record<string, unknown>);
    // The parent's signature is wider than its declaration file says (params is Nest 12's).
    (super.printMessages as (...args: unknown[]) => void).call(this, safe, context, logLevel, writeStreamType, stack, safeParams);
  }

  /** As Nest's, but the line goes to the buffered writer (`log-writer.ts`) instead of one write per line. */
  protected override printAsJson(message: unknown, options: Parameters<ConsoleLogger['printAsJson']>[1]): void {
    const record = this.getJsonLogObject(message, options);
    const line =
      !this.options.colors && this.inspectOptions.compact === true
        ? this.stringifyJsonLogObject(record)
        : inspect(record, this.inspectOptions);
    writeLogLine(options.writeStreamType ?? 'stdout', `${line}\n`);
  }

  protected override printStackTrace(stack: string): void {
    super.printStackTrace(typeof stack === 'string' ? redactText(stack) : stack);
  }

  protected override getJsonLogObject(
    message: unknown,
    options: Parameters<ConsoleLogger['getJsonLogObject']>[1],
  ): ReturnType<ConsoleLogger['getJsonLogObject']> {
    const record = super.getJsonLogObject(message, options) as unknown as Record<string, unknown>;
    const fields: Record<string, unknown> = { ...currentRequestLogFields() };
    const span = trace.getActiveSpan()?.spanContext();
    if (span && isSpanContextValid(span)) fields.traceId = span.traceId;
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined && !(key in record)) record[key] = value;
    }
    if (record.error instanceof Error) record.error = redactError(record.error);
    return record as unknown as ReturnType<ConsoleLogger['getJsonLogObject']>;
  }
}

let installed: ObservabilityLogger | undefined;

/**
 * Makes `ObservabilityLogger` the logger of every `new Logger(context)` in the process (Nest's
 * static logger), keeping log levels set earlier; replaces an installed one whose format differs
 * (tests switch formats). `main.ts` calls it first, once the settings are validated, so that even
 * the lines written before `NestFactory.create()` (database preparation) use it;
 * `NestFactory.create(…, { logger: levels })` still applies its levels.
 */
export function installObservabilityLogger(format: LogFormat): ObservabilityLogger {
  if (installed?.format === format) return installed;
  const levels = (Logger as unknown as { logLevels?: LogLevel[] }).logLevels;
  installed = new ObservabilityLogger(format, levels);
  Logger.overrideLogger(installed);
  return installed;
}

/** The installed logger, whatever its format; else `format`'s, installed now (an application booted without `main.ts`: tests). */
export function ensureObservabilityLogger(format: LogFormat): ObservabilityLogger {
  return installed ?? installObservabilityLogger(format);
}
