import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { PART_BYTES } from '../attachments/attachment-files.js';

/** How an export takes turns with the other requests of the process and of its database. */
export interface ExportPace {
  /** Rows per page: one query. */
  pageRows: number;
  /** Bytes per stored part: one INSERT, and one MCP resource read of the file. */
  partBytes: number;
  /** Between two pages, given how long the last one took (its read and what it wrote). */
  rest(busyMs: number): Promise<void>;
}

/**
 * PostgreSQL: other requests run on connections of their own, in parallel with the export. Pages
 * of 500 rows, parts of 1 MiB, and one turn of the event loop between pages (the requests that
 * arrived meanwhile run first).
 */
export const POSTGRES_PACE: ExportPace = { pageRows: 500, partBytes: PART_BYTES, rest: () => nextTurn() };

/**
 * The embedded database (PGlite): every query runs on one backend in this process, one at a time,
 * holding the event loop; while a page or a part of the export runs, every other request waits
 * (a 500-row page took ~10 ms there, a 1 MiB part 25–55 ms, a whole REST read ~8 ms). So the
 * steps are small (100 rows, 128 KiB: a few milliseconds each), and after each page the export
 * rests twice as long as it worked, and at least 5 ms: it takes at most a third of the database,
 * and a request that arrives finds it free within one small step, then room for all its queries
 * (resting only as long as it worked left gaps shorter than a read, which then waited for several
 * steps). The export takes three to four times as long; reads during it stay close to idle.
 */
export const EMBEDDED_PACE: ExportPace = { pageRows: 100, partBytes: 128 * 1024, rest: (busyMs) => sleep(2 * busyMs + 5) };
