import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';

export interface PeriodicCleanupOptions {
  /** The logger's context (`[IdempotencyCleanup]`). */
  loggerName: string;
  /** What is deleted, for the failure line ("expired idempotency rows"). */
  rows: string;
  /** Milliseconds between runs; 0 = never by itself (tests, or a job outside the app does it). */
  intervalMs: number;
}

/**
 * A provider that deletes expired rows now and then, from application start to shutdown. Only
 * housekeeping: its users never rely on it for correctness, so a failed run is logged and left to
 * the next one rather than thrown, and the timer never keeps the process alive.
 */
export abstract class PeriodicCleanup implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger: Logger;
  private timer?: NodeJS.Timeout;

  protected constructor(private readonly options: PeriodicCleanupOptions) {
    this.logger = new Logger(options.loggerName);
  }

  /** Deletes what expired at `now`; returns how many rows went. */
  protected abstract deleteExpired(now: Date): Promise<number>;

  onApplicationBootstrap(): void {
    if (!this.options.intervalMs) return;
    this.timer = setInterval(() => void this.run(), this.options.intervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** One run now; returns how many rows went (0 when it failed). */
  async run(now = new Date()): Promise<number> {
    try {
      return await this.deleteExpired(now);
    } catch (error) {
      this.logger.warn(`Cleanup of ${this.options.rows} failed (retried next time): ${(error as Error).message}`);
      return 0;
    }
  }
}
