/**
 * Where JSON log lines go: buffered, off the request path. Writing each line to stdout is one
 * system call per line (a pipe or a terminal is written synchronously), a measurable share of a
 * busy server's CPU for its access lines. Lines are kept in order and written together:
 * - at most `FLUSH_INTERVAL_MS` later (a timer that never keeps the process alive), or as soon as
 *   `MAX_BUFFERED_CHARS` are waiting;
 * - at once for a stderr line (errors), the stdout lines before it first;
 * - at once on `flushLogs()` and when the process exits (`exit` runs on `process.exit()`, after a
 *   graceful SIGTERM shutdown and after an uncaught exception), so nothing logged is lost then.
 * A `kill -9` loses at most the last `FLUSH_INTERVAL_MS` of lines.
 */
const FLUSH_INTERVAL_MS = 50;
const MAX_BUFFERED_CHARS = 64 * 1024;

let pending: string[] = [];
let pendingChars = 0;
let timer: NodeJS.Timeout | undefined;
let exitHooked = false;

/** Queues one line (with its newline) for stdout, or writes a stderr line at once, after the queue. */
export function writeLogLine(stream: 'stdout' | 'stderr', line: string): void {
  if (stream === 'stderr') {
    flushLogs();
    process.stderr.write(line);
    return;
  }
  pending.push(line);
  pendingChars += line.length;
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', flushLogs);
  }
  if (pendingChars >= MAX_BUFFERED_CHARS) flushLogs();
  else timer ??= setTimeout(flushLogs, FLUSH_INTERVAL_MS).unref();
}

/** Writes every queued line now (one write). */
export function flushLogs(): void {
  if (timer) clearTimeout(timer);
  timer = undefined;
  if (!pending.length) return;
  const text = pending.length === 1 ? pending[0] : pending.join('');
  pending = [];
  pendingChars = 0;
  process.stdout.write(text);
}
