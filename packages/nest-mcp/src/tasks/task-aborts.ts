import { Injectable } from '@nestjs/common';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';

/** Why a running task was stopped: the signal's reason, which the call fails with (so its writes roll back). */
export class TaskStopped extends McpProtocolError {
  constructor(
    readonly why: 'cancelled' | 'timed-out' | 'shutdown',
    message: string,
  ) {
    super(McpErrorCode.InternalError, message, 200);
  }
}

/** The tasks running in this process, by id: a cancel received here stops its run at once. */
@Injectable()
export class TaskAborts {
  private readonly running = new Map<string, AbortController>();

  /** Registers a run; `release` when it ends. */
  track(taskId: string): { signal: AbortSignal; stop: (reason: TaskStopped) => void; release: () => void } {
    const controller = new AbortController();
    this.running.set(taskId, controller);
    return {
      signal: controller.signal,
      stop: (reason) => controller.abort(reason),
      release: () => {
        if (this.running.get(taskId) === controller) this.running.delete(taskId);
      },
    };
  }

  cancelled(taskId: string): void {
    this.running.get(taskId)?.abort(new TaskStopped('cancelled', 'The task was cancelled: nothing it did was kept'));
  }

  /** Every run of this process (at shutdown). */
  stopAll(): void {
    for (const controller of this.running.values()) {
      controller.abort(new TaskStopped('shutdown', 'The server stopped while the task ran: it will run again'));
    }
  }
}
