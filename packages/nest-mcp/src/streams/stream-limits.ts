import { Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';

/**
 * Bounds the SSE streams this process holds open (`maxStreams`) and those of one caller
 * (`maxStreamsPerCaller`): an open stream holds a socket and memory for as long as the client
 * likes. Counted per process, where the sockets are.
 */
@Injectable()
export class StreamLimits {
  private total = 0;
  private readonly byCaller = new Map<string, number>();

  constructor(@Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions) {}

  /** A release function, or undefined when a limit is reached (the caller answers without a stream). */
  acquire(callerKey: string): (() => void) | undefined {
    const limits = this.options.streams!;
    const mine = this.byCaller.get(callerKey) ?? 0;
    if (this.total >= limits.maxStreams || mine >= limits.maxStreamsPerCaller) return undefined;
    this.total++;
    this.byCaller.set(callerKey, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.byCaller.get(callerKey) ?? 1) - 1;
      if (left > 0) this.byCaller.set(callerKey, left);
      else this.byCaller.delete(callerKey);
    };
  }

  get open(): number {
    return this.total;
  }
}
