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
  installMemoryProbe();
  process.stdout.write(`BENCH_READY ${JSON.stringify({ port: address.port, pid: process.pid, ...extra })}\n`);
}

/**
 * SIGUSR2: a full garbage collection (when started with --expose-gc), then one line on stdout,
 * `BENCH_MEMORY {rss, heapTotal, heapUsed, external, arrayBuffers}` (bytes). The soak reads memory
 * this way before and after, so that where the GC sawtooth happens to be does not decide the result.
 */
function installMemoryProbe(): void {
  process.on('SIGUSR2', () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    setTimeout(() => process.stdout.write(`BENCH_MEMORY ${JSON.stringify({ gc: !!gc, ...process.memoryUsage() })}\n`), 100);
  });
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
