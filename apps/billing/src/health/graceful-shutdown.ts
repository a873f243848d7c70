import type { Server, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger, type INestApplication } from '@nestjs/common';
import { ShutdownState } from './shutdown.state.js';

export interface GracefulShutdownOptions {
  /**
   * How long readiness answers 503 while the server still accepts connections, so load balancers
   * take this replica out before it stops listening (`SHUTDOWN_DELAY_MS`, `CoreConfig.health`).
   */
  delayMs: number;
  /** How long in-flight requests get to finish (`SHUTDOWN_TIMEOUT_MS`, `CoreConfig.health`). */
  timeoutMs: number;
  /** Runs after Nest has closed (the database pool included), e.g. to stop an embedded database. */
  afterClose?: () => Promise<void>;
}

export interface ShutdownReport {
  /** Requests in flight when the shutdown began. */
  inFlightAtStart: number;
  /** Requests answered during the shutdown (those in flight, and any that came in during the delay). */
  finished: number;
  /** Requests whose connections were cut at the deadline (0 when all finished). */
  cut: number;
  /** Whether Nest closed (the database pool with it) within the deadline. */
  closed: boolean;
  durationMs: number;
}

/**
 * Graceful shutdown of a listening application, in this order:
 * 1. readiness answers 503 at once (`ShutdownState`), answers in flight carry `Connection: close`;
 * 2. after `delayMs`, the server stops accepting connections; idle keep-alive ones are closed;
 * 3. requests in flight finish (up to `timeoutMs`; then their connections are cut);
 * 4. `app.close()`: Nest's shutdown hooks, among them PrismaService closing the pool;
 * 5. `afterClose` (also when `app.close()` failed).
 * Returns the function to call on SIGTERM; it resolves when everything is closed.
 */
export function gracefulShutdown(app: INestApplication, options: GracefulShutdownOptions): () => Promise<ShutdownReport> {
  const logger = new Logger('Shutdown');
  const { delayMs, timeoutMs } = options;
  const server = app.getHttpServer() as Server;
  const state = app.get(ShutdownState);
  const active = new Set<ServerResponse>();
  let drained: (() => void) | undefined;
  let finished = 0;

  // First listener: counts every request, and asks clients not to reuse connections once shutting down.
  server.prependListener('request', (_req, res: ServerResponse) => {
    active.add(res);
    if (state.shuttingDown) res.setHeader('Connection', 'close');
    res.once('close', () => {
      active.delete(res);
      if (!state.shuttingDown) return;
      if (res.writableFinished) finished++;
      server.closeIdleConnections();
      if (!active.size) drained?.();
    });
  });

  let running: Promise<ShutdownReport> | undefined;
  return () =>
    (running ??= (async () => {
      const began = performance.now();
      state.begin();
      const inFlightAtStart = active.size;
      logger.log(`Shutting down: readiness is 503; ${inFlightAtStart} request(s) in flight`);
      for (const res of active) if (!res.headersSent) res.setHeader('Connection', 'close');
      if (delayMs) await sleep(delayMs);

      const allDone = new Promise<void>((resolve) => {
        drained = resolve;
        if (!active.size) resolve();
      });
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let cut = 0;
      const deadline = new AbortController();
      const allFinished = await Promise.race([
        allDone.then(() => true),
        sleep(timeoutMs, false, { signal: deadline.signal }).catch(() => true),
      ]);
      deadline.abort();
      if (!allFinished) {
        cut = active.size;
        logger.warn(`${cut} request(s) still running after ${timeoutMs} ms: closing their connections`);
      }
      server.closeAllConnections();
      await serverClosed;
      // Nest's shutdown hooks, the pool's end among them, get a deadline too: the process must exit.
      let closed = false;
      const closing = new AbortController();
      try {
        closed = await Promise.race([app.close().then(() => true), sleep(timeoutMs, false, { signal: closing.signal }).catch(() => false)]);
        if (!closed) logger.error(`The application did not close within ${timeoutMs} ms (database pool still open?): exiting anyway`);
      } finally {
        closing.abort();
        await options.afterClose?.();
      }
      const durationMs = Math.round(performance.now() - began);
      logger.log(
        `Shutdown complete in ${durationMs} ms: ${finished} request(s) finished, ${cut} cut, ${closed ? 'database pool closed' : 'database pool NOT closed'}`,
      );
      return { inFlightAtStart, finished, cut, closed, durationMs };
    })());
}
