import type { AddressInfo } from 'node:net';

/** Loopback only: the bench never listens on another interface. */
export const HOST = '127.0.0.1';
export const PORT = Number(process.env.PORT ?? 0);

/**
 * Tells the bench runner the server is listening: one line on stdout, `BENCH_READY {json}`.
 * Anything else the server prints goes to the case's log file.
 */
export function announceReady(address: AddressInfo | string | null, extra: Record<string, unknown> = {}): void {
  if (!address || typeof address === 'string') throw new Error(`Unexpected server address: ${String(address)}`);
  process.stdout.write(`BENCH_READY ${JSON.stringify({ port: address.port, pid: process.pid, ...extra })}\n`);
}

/**
 * SIGTERM/SIGINT: exit at once with code 0. No graceful close: the runner has finished measuring,
 * a close would only wait for pools and keep-alive sockets; `process.exit` still writes the
 * `--cpu-prof` profile (BENCH_CPU_PROF=1), a kill would not.
 */
export function exitOnSignal(): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => process.exit(0));
}

/** A boot failure is printed and ends the process with code 1 (the runner reports it). */
export function fail(error: unknown): never {
  console.error(`BENCH_BOOT_FAILED ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
}
