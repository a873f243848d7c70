import type { CallToolResult } from '@modelcontextprotocol/server';
import { Injectable } from '@nestjs/common';
import type { IdempotencyClaim, IdempotentCall, McpIdempotencyStore } from '../contracts/idempotency-store.js';

interface Entry {
  argumentsHash: string;
  expiresAt: number;
  /** Set by `save`: what later calls with the key get back. */
  result?: CallToolResult;
  /** Settles when the first call saves or releases: concurrent calls wait for it. */
  settled: Promise<void>;
  settle: () => void;
}

/** How long an answer is kept, and how many keys at most (the oldest go first). */
const TTL_MS = 24 * 60 * 60 * 1000;
const MAX_ENTRIES = 10_000;

/**
 * The default idempotency store: first answers in this process's memory, per caller, tool and key.
 * Right for one replica and for tests; several replicas need a shared store (the billing app's
 * is in Postgres), given as the `idempotencyStore` option. A concurrent call with the same key
 * waits for the first one to finish, then gets its answer (or runs, if the first freed the key).
 */
@Injectable()
export class InMemoryIdempotencyStore implements McpIdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  async claim(call: IdempotentCall): Promise<IdempotencyClaim> {
    const key = keyOf(call);
    for (;;) {
      const entry = this.live(key);
      if (!entry) {
        this.insert(key, call.argumentsHash);
        return { kind: 'first' };
      }
      if (entry.argumentsHash !== call.argumentsHash) return { kind: 'mismatch' };
      if (entry.result) return { kind: 'replay', result: entry.result };
      await entry.settled;
    }
  }

  async save(call: IdempotentCall, result: CallToolResult): Promise<void> {
    const entry = this.entries.get(keyOf(call));
    if (!entry) return;
    entry.result = result;
    entry.settle();
  }

  async release(call: IdempotentCall): Promise<void> {
    const key = keyOf(call);
    const entry = this.entries.get(key);
    if (!entry || entry.result) return;
    this.entries.delete(key);
    entry.settle();
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      entry.settle();
      return undefined;
    }
    return entry;
  }

  private insert(key: string, argumentsHash: string): void {
    if (this.entries.size >= MAX_ENTRIES) this.evictOldest();
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    this.entries.set(key, { argumentsHash, expiresAt: Date.now() + TTL_MS, settled, settle });
  }

  private evictOldest(): void {
    // A Map iterates in insertion order: the first key is the oldest.
    const [oldest] = this.entries.keys();
    this.entries.get(oldest)?.settle();
    this.entries.delete(oldest);
  }
}

/** A key belongs to one caller: another caller's identical key is another operation. */
function keyOf(call: IdempotentCall): string {
  return JSON.stringify([call.invocation.callerKey ?? '', call.tool, call.key]);
}
