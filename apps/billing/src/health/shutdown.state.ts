import { Injectable } from '@nestjs/common';

/**
 * Whether this process is shutting down. Set first thing on SIGTERM (see `graceful-shutdown.ts`),
 * so readiness answers 503 at once and load balancers stop sending new work here.
 */
@Injectable()
export class ShutdownState {
  private startedAt: number | undefined;

  get shuttingDown(): boolean {
    return this.startedAt !== undefined;
  }

  begin(): void {
    this.startedAt ??= Date.now();
  }
}
