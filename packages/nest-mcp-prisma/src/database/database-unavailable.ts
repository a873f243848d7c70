import { HttpException, HttpStatus, Logger } from '@nestjs/common';

/** `Retry-After` of a 503 when the connection options name none. */
export const DEFAULT_DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The database cannot be reached right now (refused, cut, timed out, restarting, out of
 * connections): a `503` with `Retry-After`, never a `500`. The request did not complete; its
 * transaction, if any, did not commit (or, if the cut came between the COMMIT and its
 * acknowledgement, committed whole: an idempotency key makes the retry safe either way).
 * `Retry-After` rides in the response object under `headers`, where the MCP endpoint's filter
 * reads it; a REST filter of the application puts `headers` on the response and `body()` in it.
 */
export class DatabaseUnavailableException extends HttpException {
  readonly retryAfterSeconds: number;
  readonly headers: Record<string, string>;

  constructor(cause?: unknown, retryAfterSeconds = DEFAULT_DATABASE_RETRY_AFTER_SECONDS) {
    const headers = { 'Retry-After': String(retryAfterSeconds) };
    const message = `Database unavailable, retry after ${retryAfterSeconds} s`;
    super({ statusCode: 503, error: 'Service Unavailable', message, headers }, HttpStatus.SERVICE_UNAVAILABLE, { cause });
    this.retryAfterSeconds = retryAfterSeconds;
    this.headers = headers;
  }

  /** The JSON body of a REST answer: the response object without its headers. */
  body(): Record<string, unknown> {
    const { headers: _headers, ...body } = this.getResponse() as Record<string, unknown>;
    return body;
  }
}

/** Prisma error codes of an unreachable or vanished server (not of a bad query). */
const PRISMA_CODES = new Set([
  'P1001', // Can't reach database server
  'P1002', // The database server was reached but timed out
  'P1008', // Operations timed out
  'P1017', // Server has closed the connection
  'P2024', // Timed out fetching a new connection from the connection pool
]);
/** `DriverAdapterError` kinds of `@prisma/adapter-pg` for the same situations. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** Socket errors of `pg` (a refused, reset or unreachable server). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/**
 * SQLSTATEs of a server that drops or refuses sessions: class 08 (connection exception),
 * 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 53300 too_many_connections.
 */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** Messages `pg` and `pg-pool` throw without a code when a connection dies or cannot be made. */
const MESSAGES =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end|Can't reach database server|Server has closed the connection/i;

/**
 * Whether `error` (a Prisma error, a driver adapter error, a `pg` error, anything wrapping one
 * in `cause`) says the database is unreachable, as opposed to a query that failed on its own.
 * Shapes observed by cutting the connections of a running app:
 * - server down before a query: `PrismaClientKnownRequestError` P1001 (P2010 for raw queries) with
 *   `meta.driverAdapterError.cause.kind = "DatabaseNotReachable"`;
 * - connection cut during a query or a transaction: a plain `Error` "Connection terminated
 *   unexpectedly" / "Client has encountered a connection error and is not queryable" from `pg`.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  if (error instanceof DatabaseUnavailableException) return true;
  const e = error as {
    code?: unknown;
    errorCode?: unknown;
    kind?: unknown;
    originalCode?: unknown;
    message?: unknown;
    meta?: { driverAdapterError?: unknown };
    cause?: unknown;
  };
  for (const code of [e.code, e.errorCode, e.originalCode]) {
    if (typeof code !== 'string') continue;
    if (PRISMA_CODES.has(code) || SOCKET_CODES.has(code) || SQLSTATE.test(code)) return true;
  }
  if (typeof e.kind === 'string' && ADAPTER_KINDS.has(e.kind)) return true;
  if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
  return isDatabaseUnavailable(e.meta?.driverAdapterError, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1);
}

const logger = new Logger('Database');
let lastWarning = 0;

/**
 * `error` as a {@link DatabaseUnavailableException} (`Retry-After: retryAfterSeconds`) when it says
 * the database is unreachable, else unchanged. An outage is logged once every 10 s at most, not
 * once per failed request.
 */
export function asDatabaseUnavailable(error: unknown, retryAfterSeconds?: number): unknown {
  if (error instanceof DatabaseUnavailableException || !isDatabaseUnavailable(error)) return error;
  const now = Date.now();
  if (now - lastWarning >= 10_000) {
    lastWarning = now;
    logger.warn(`Database unavailable (requests answer 503 until it is back): ${(error as Error)?.message?.trim() ?? String(error)}`);
  }
  return new DatabaseUnavailableException(error, retryAfterSeconds);
}
