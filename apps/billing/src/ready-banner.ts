import { Logger } from '@nestjs/common';
import { flushLogs } from './observability/log-writer.js';

export interface ReadyBanner {
  /** `pretty` (a terminal): a block of plain lines; `json`: one log line each (log shippers read them). */
  format: 'pretty' | 'json';
  lines: Array<[label: string, value: string]>;
  /** Lines printed last, never logged: the demo password and token (see demo-mode.ts). */
  secrets?: () => void;
}

/**
 * The lines a person needs after `npm start` (endpoint, docs, admin pages, token), printed last,
 * after every buffered log line, so they are the ones left on the screen. Scripts and tests read
 * `MCP endpoint: <url>` and `Demo token: <token>`: keep those prefixes.
 */
export function printReadyBanner({ format, lines, secrets }: ReadyBanner): void {
  if (format === 'json') {
    const logger = new Logger('Bootstrap');
    for (const [label, value] of lines) logger.log(`${label}: ${value}`);
    flushLogs();
  } else {
    flushLogs();
    console.log(['', 'Ready.', ...lines.map(([label, value]) => `  ${label}: ${value}`)].join('\n'));
  }
  secrets?.();
}
