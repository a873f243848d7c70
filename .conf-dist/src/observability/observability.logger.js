import { inspect } from 'node:util';
import { ConsoleLogger, Logger } from '@nestjs/common';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { redactError, redactText, redactValue } from './log-redaction.js';
import { writeLogLine } from './log-writer.js';
import { currentRequestLogFields } from './request-log.js';
import { rawEnvironment } from '../config/environment.js';
/** Logger contexts of Nest's start-up lines ("… dependencies initialized", "Mapped {/mcp, POST} route"). */
const FRAMEWORK_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);
/**
 * `LOG_FORMAT=json|pretty`; unset: pretty on an interactive terminal outside production
 * (`npm start` by hand), JSON lines everywhere else (containers, CI, log shippers).
 */
export function resolveLogFormat(env = rawEnvironment(), interactive = !!process.stdout.isTTY) {
    const chosen = env.LOG_FORMAT?.trim().toLowerCase();
    if (chosen === 'json' || chosen === 'pretty')
        return chosen;
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
    format;
    constructor(format, logLevels) {
        super({ json: format === 'json', flattenParams: true, ...(logLevels ? { logLevels } : {}) });
        this.format = format;
    }
    /** Nest's boot chatter (a line per module and per route) is logged at debug, so the lines that matter stay visible. */
    log(message, ...optionalParams) {
        const context = optionalParams.at(-1);
        if (typeof context === 'string' && FRAMEWORK_CHATTER.has(context))
            return this.debug(message, ...optionalParams);
        super.log(message, ...optionalParams);
    }
    printMessages(messages, context, logLevel, writeStreamType, errorStack, params) {
        const safe = messages.map((message) => redactValue(this.resolveMessage(message)));
        const stack = typeof errorStack === 'string' ? redactText(errorStack) : errorStack;
        const safeParams = params && redactValue(params);
        // The parent's signature is wider than its declaration file says (params is Nest 12's).
        super.printMessages.call(this, safe, context, logLevel, writeStreamType, stack, safeParams);
    }
    /** As Nest's, but the line goes to the buffered writer (`log-writer.ts`) instead of one write per line. */
    printAsJson(message, options) {
        const record = this.getJsonLogObject(message, options);
        const line = !this.options.colors && this.inspectOptions.compact === true
            ? this.stringifyJsonLogObject(record)
            : inspect(record, this.inspectOptions);
        writeLogLine(options.writeStreamType ?? 'stdout', `${line}\n`);
    }
    printStackTrace(stack) {
        super.printStackTrace(typeof stack === 'string' ? redactText(stack) : stack);
    }
    getJsonLogObject(message, options) {
        const record = super.getJsonLogObject(message, options);
        const fields = { ...currentRequestLogFields() };
        const span = trace.getActiveSpan()?.spanContext();
        if (span && isSpanContextValid(span))
            fields.traceId = span.traceId;
        for (const [key, value] of Object.entries(fields)) {
            if (value !== undefined && !(key in record))
                record[key] = value;
        }
        if (record.error instanceof Error)
            record.error = redactError(record.error);
        return record;
    }
}
let installed;
/**
 * Makes `ObservabilityLogger` the logger of every `new Logger(context)` in the process (Nest's
 * static logger), keeping log levels set earlier. Idempotent. Called when the observability
 * module is imported, so that even the lines written before `NestFactory.create()` (database
 * preparation) use it; `NestFactory.create(…, { logger: levels })` still applies its levels.
 * Passing a format replaces the installed logger when its format differs (tests).
 */
export function installObservabilityLogger(format) {
    if (installed && (format === undefined || installed.format === format))
        return installed;
    const levels = Logger.logLevels;
    installed = new ObservabilityLogger(format ?? resolveLogFormat(), levels);
    Logger.overrideLogger(installed);
    return installed;
}
//# sourceMappingURL=observability.logger.js.map