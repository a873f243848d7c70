import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { Sql } from '@prisma/client/runtime/client';

/**
 * One open transaction on one pooled connection. While it is open, every query of the work it
 * wraps — Prisma's model calls, `$queryRaw`, the layer's own SQL — runs on that connection
 * (`TransactionRoutingPool`), found through `AsyncLocalStorage` rather than passed down by hand.
 */
export class SqlTransaction {
  /** Ended (committed or rolled back): queries of this context go to the pool again. */
  ended = false;
  /** Held past its time limit and rolled back: later queries of the work fail instead of leaking out of it. */
  expired = false;
  /** Work to run once the transaction has ended (see `McpDatabase.afterTransaction`). */
  readonly afterEnd: Array<() => Promise<unknown>> = [];
  /** Announcements to make only once the transaction has committed (see `McpDatabase.afterCommit`). */
  readonly onCommit: Array<() => void> = [];
  /** Writes that wait for the commit, sent together just before it (see `McpDatabase.sqlBeforeCommit`). */
  readonly beforeCommit: Sql[] = [];
  private savepoints = 0;
  /** `BEGIN`, sent but held in the socket's buffer until the transaction's first statement joins it. */
  private begun?: Promise<unknown>;
  private corked = false;

  constructor(
    readonly client: pg.PoolClient,
    /** How long it may stay open before it is rolled back. */
    readonly limitMs: number,
  ) {}

  /**
   * Starts the transaction without a round trip of its own: on a pipelined connection (the pool's
   * `pipeline: true`), `BEGIN` waits in the corked socket and goes out in one write with the
   * first statement (`send`), whose answer then also says whether `BEGIN` succeeded.
   */
  begin(): void {
    this.client.connection.stream.cork();
    this.corked = true;
    this.begun = this.client.query('BEGIN');
    // Observed by the first statement, or by `commit`.
    this.begun.catch(() => undefined);
  }

  /**
   * Nothing sent yet: `BEGIN` still waits in the socket for the first statement, so for the
   * database no transaction is open (no snapshot, no lock, and on the embedded database the one
   * backend is free for other connections).
   */
  get unstarted(): boolean {
    return this.corked;
  }

  /**
   * One statement of the transaction (any form `pg` accepts). The first one leaves in the same
   * write as `BEGIN`; should `BEGIN` itself have failed, that statement fails too, so the work
   * stops at its first step instead of going on outside a transaction.
   */
  send(...args: unknown[]): unknown {
    const result = (this.client.query as (...a: unknown[]) => unknown)(...args);
    if (!this.corked) return result;
    this.uncork();
    return result instanceof Promise ? Promise.all([this.begun, result]).then(([, rows]) => rows as unknown) : result;
  }

  /**
   * The writes waiting for the commit (one statement) and `COMMIT`, pipelined: one write and one
   * round trip. If the writes fail, PostgreSQL answers the `COMMIT` of the aborted transaction
   * with a rollback, and the writes' error is what this throws.
   */
  async commit(waitingWrites: pg.QueryConfig | undefined): Promise<void> {
    const stream = this.client.connection.stream;
    stream.cork();
    const sent: Array<Promise<unknown>> = this.begun ? [this.begun] : [];
    if (waitingWrites) sent.push(this.client.query(waitingWrites.text, waitingWrites.values));
    sent.push(this.client.query('COMMIT'));
    stream.uncork();
    this.uncork();
    await Promise.all(sent);
  }

  /** `ROLLBACK` (with the `BEGIN` still held back, if no statement was sent). */
  rollback(): Promise<unknown> {
    const done = this.client.query('ROLLBACK');
    this.uncork();
    return done;
  }

  nextSavepoint(): string {
    return `sp_${++this.savepoints}`;
  }

  private uncork(): void {
    if (!this.corked) return;
    this.corked = false;
    this.client.connection.stream.uncork();
  }
}

const storage = new AsyncLocalStorage<SqlTransaction>();

export const SqlTransactionScope = {
  /** The transaction the current code runs in, if one is open. */
  current(): SqlTransaction | undefined {
    const tx = storage.getStore();
    return tx && !tx.ended ? tx : undefined;
  },
  run<T>(tx: SqlTransaction, work: () => Promise<T>): Promise<T> {
    return storage.run(tx, work);
  },
  /**
   * Runs `work` outside any transaction of the calling context: for work that belongs to no one
   * request (a batch flushed on behalf of many callers) and must never join one's transaction.
   */
  outside<T>(work: () => T): T {
    return storage.exit(work);
  },
};

/** The error of a query made in a transaction that outlived its time limit (and was rolled back). */
export class TransactionExpiredError extends Error {
  constructor(limitMs: number) {
    super(`Transaction rolled back: it was held open longer than ${limitMs} ms`);
  }
}
