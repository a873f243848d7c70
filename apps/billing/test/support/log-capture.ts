import { flushLogs } from '../../src/observability/log-writer.js';

/**
 * Captures what this process writes to stdout and stderr (the application's logs, in-process)
 * while it is installed. Every write is kept for `text()`; log lines (JSON records and Nest's
 * pretty lines) are not passed through, so a test's output stays readable; anything else (the
 * test runner's own reporting) still reaches the terminal. JSON log lines are written buffered
 * (`log-writer.ts`): the capture flushes them when it starts, is read and is restored.
 */
export interface LogCapture {
  /** Everything written since the capture started. */
  text(): string;
  /** The JSON log records written since the capture started. */
  records(): Array<Record<string, unknown>>;
  /** Forgets what was captured so far. */
  clear(): void;
  restore(): void;
}

const LOG_LINE = /^(\{"level":|\[Nest\] |\x1b\[3\dm\[Nest\])/;

export function captureOutput(): LogCapture {
  flushLogs();
  let captured = '';
  let logLines = '';
  const originals = { stdout: process.stdout.write, stderr: process.stderr.write };
  for (const name of ['stdout', 'stderr'] as const) {
    const stream = process[name];
    const original = originals[name];
    stream.write = function (chunk: unknown, ...rest: unknown[]): boolean {
      const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
      captured += text;
      if (LOG_LINE.test(text)) {
        logLines += text.endsWith('\n') ? text : `${text}\n`;
        const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
        callback?.();
        return true;
      }
      return (original as (...args: unknown[]) => boolean).call(stream, chunk, ...rest);
    };
  }
  return {
    text: () => {
      flushLogs();
      return captured;
    },
    records: () =>
      (flushLogs(), logLines)
        .split('\n')
        .filter((line) => line.startsWith('{"level":'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    clear: () => {
      flushLogs();
      captured = '';
      logLines = '';
    },
    restore: () => {
      flushLogs();
      process.stdout.write = originals.stdout;
      process.stderr.write = originals.stderr;
    },
  };
}
