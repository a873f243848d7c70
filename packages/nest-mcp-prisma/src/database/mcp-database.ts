import { type OnApplicationShutdown } from '@nestjs/common';
import type { Sql } from '@prisma/client/runtime/client';
import type pg from 'pg';
import { combinedWrites } from './combined-writes.js';
import type { McpDatabaseConnection } from './database-connection.js';
import { asDatabaseUnavailable, DEFAULT_DATABASE_RETRY_AFTER_SECONDS } from './database-unavailable.js';
import { SqlTransaction, SqlTransactionScope, TransactionExpiredError } from './sql-transaction.js';
import { TransactionRoutingPool } from './transaction-routing.pool.js';

/**
 * The unit of work: one PostgreSQL pool that the application's Prisma client is built on
 * (`new PrismaPg(database.pool)`), and transactions bound to the calling async context. Inside
 * `transaction(…)` every query of the work — Prisma model calls, `$queryRaw`, `sql` — runs on
 * the transaction's connection (see `TransactionRoutingPool`), so a service's writes commit or
 * roll back with the call's audit row without being handed a transaction client.
 */
export class McpDatabase implements OnApplicationShutdown {
  /** The pool to give Prisma's driver adapter: `new PrismaPg(database.pool)`. */
  readonly pool: TransactionRoutingPool;
  /** The database's URL: for components that open connections of their own (LISTEN, a job queue). */
  readonly url: string;
  /** How long a transaction may stay open before it is rolled back. */
  transactionLimitMs: number;
  readonly retryAfterSeconds: number;

  constructor(connection: McpDatabaseConnection) {
    this.url = connection.url;
    this.retryAfterSeconds = connection.retryAfterSeconds ?? DEFAULT_DATABASE_RETRY_AFTER_SECONDS;
    this.transactionLimitMs = connection.transactionLimitMs ?? 15_000;
    this.pool = createPool(connection);
  }

  /** Whether the calling code runs inside an open transaction. */
  get inTransaction(): boolean {
    return SqlTransactionScope.current() !== undefined;
  }

  /**
   * One statement written with Prisma's `sql` tag (`Prisma.sql`), sent straight to the driver (in
   * the open transaction, if any): for statements on the hot path of every call (idempotency
   * keys, audit rows), which do not need the ORM's per-query work. Rows come back as `pg` parses them.
   * With `name`, sent as that named prepared statement (parsed once per connection; the name must
   * stand for this text alone).
   */
  async sql<Row = Record<string, unknown>>(statement: Sql, options: { name?: string } = {}): Promise<{ rows: Row[]; rowCount: number }> {
    try {
      // Text and values apart when unnamed: pg copies a config object before every query, not a string.
      const result = options.name
        ? await this.pool.query<Row & pg.QueryResultRow>({ name: options.name, text: statement.text, values: statement.values })
        : await this.pool.query<Row & pg.QueryResultRow>(statement.text, statement.values);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    } catch (error) {
      throw asDatabaseUnavailable(error, this.retryAfterSeconds);
    }
  }

  /**
   * A write nobody reads back before the commit (an audit row, a stored answer): in a transaction
   * it waits and is sent just before the COMMIT, together with the others waiting, as one
   * statement (one round trip for all); outside one it runs at once. It commits or rolls back
   * with the transaction like any other write; if it fails, the transaction fails at its end.
   */
  async sqlBeforeCommit(statement: Sql): Promise<void> {
    const tx = SqlTransactionScope.current();
    if (tx) tx.beforeCommit.push(statement);
    else await this.sql(statement);
  }

  /**
   * Runs `work` in one transaction bound to the calling context; nested calls join the open
   * transaction instead of starting another. With `savepoint`, a nested call that fails rolls
   * back only its own writes (a SAVEPOINT of the open transaction), and the outer work goes on.
   * Held open longer than `limitMs` (default `transactionLimitMs`), it is rolled back and the
   * work's later queries fail. `limitMs` applies to a new transaction only: a nested call joins the
   * open one, with its limit.
   */
  async transaction<T>(work: () => Promise<T>, options: { savepoint?: boolean; limitMs?: number } = {}): Promise<T> {
    const open = SqlTransactionScope.current();
    if (open) return options.savepoint ? this.inSavepoint(open, work) : work();

    const limitMs = options.limitMs ?? this.transactionLimitMs;
    const client = await this.pool.connect().catch((error: unknown) => {
      throw asDatabaseUnavailable(error, this.retryAfterSeconds);
    });
    const tx = new SqlTransaction(client, limitMs);
    const timer = setTimeout(() => {
      tx.expired = true;
      // Sent at once (pipelined), run after a query in flight, if any; the work's next query fails.
      tx.rollback().catch(() => undefined);
    }, limitMs);
    timer.unref();
    let broken: Error | undefined;
    try {
      tx.begin();
      // Awaited inside the scope: a Prisma query is lazy and runs in the context that awaits it.
      const result = await SqlTransactionScope.run(tx, async () => await work());
      if (tx.expired) throw new TransactionExpiredError(limitMs);
      await tx.commit(tx.beforeCommit.length ? combinedWrites(tx.beforeCommit) : undefined);
      for (const announce of tx.onCommit) announce();
      return result;
    } catch (error) {
      // Expired: already rolled back by the timer; whatever the work's last query threw, say why.
      if (tx.expired) throw new TransactionExpiredError(limitMs);
      // A connection that cannot even roll back is dropped from the pool, not reused.
      await tx.rollback().catch((rollbackError: Error) => (broken = rollbackError));
      throw asDatabaseUnavailable(error, this.retryAfterSeconds);
    } finally {
      clearTimeout(timer);
      tx.ended = true;
      client.release(broken);
      for (const after of tx.afterEnd) await after();
    }
  }

  /**
   * Runs `work` once the open transaction has ended, whether it committed or rolled back; at
   * once when none is open. For a write that must stick although the call it belongs to fails:
   * written outside the transaction while it is open, it would need a second connection, which
   * a one-connection database (PGlite) cannot give until the transaction ends.
   */
  async afterTransaction(work: () => Promise<unknown>): Promise<void> {
    const tx = SqlTransactionScope.current();
    if (tx) tx.afterEnd.push(work);
    else await work();
  }

  /**
   * Runs `work` on the pool's own connections, outside the calling context's transaction if one
   * is open: for state that belongs to no one call and must neither wait for a call's commit nor
   * go with its rollback. `work` must await its queries itself (a Prisma query runs in the
   * context that awaits it). On a one-connection database such a query waits until the open
   * transaction ends: do not await it from inside one.
   */
  outsideTransaction<T>(work: () => Promise<T>): Promise<T> {
    return SqlTransactionScope.outside(work);
  }

  /**
   * The reads of long work that writes only at its end (an export that reads a year of rows page
   * by page before it stores one file): outside the open transaction while that transaction has
   * sent nothing (its `BEGIN` waits for the first statement, so for the database none is open),
   * inside it once it has started. Reading before the transaction starts holds no snapshot or
   * lock for the minutes the reads take; once it has started, a read outside it would wait there
   * for the transaction, i.e. for itself. `work` must await its queries itself, and write nothing.
   */
  readBeforeWrites<T>(work: () => Promise<T>): Promise<T> {
    return SqlTransactionScope.current()?.unstarted ? SqlTransactionScope.outside(work) : work();
  }

  /**
   * Runs `work` once the open transaction has committed, never if it rolls back; at once when
   * none is open (the write before it is already committed). For announcing a change to others
   * (e.g. resource-updated notifications), which must not announce what never happened. `work`
   * must not throw; it is not awaited.
   */
  afterCommit(work: () => void): void {
    const tx = SqlTransactionScope.current();
    if (tx) tx.onCommit.push(work);
    else work();
  }

  /**
   * Last, after every module's own destroy hook: the others may still need the database to
   * finish (a task stopped at shutdown rolls its transaction back and puts its job back).
   */
  async onApplicationShutdown(): Promise<void> {
    // Once, though the instance may be provided under two tokens (an app's subclass and `McpDatabase`).
    if (!this.pool.ending) await this.pool.end();
  }

  private async inSavepoint<T>(tx: SqlTransaction, work: () => Promise<T>): Promise<T> {
    const name = tx.nextSavepoint();
    const waiting = tx.beforeCommit.length;
    await tx.send(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      await tx.send(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await tx.send(`ROLLBACK TO SAVEPOINT ${name}`);
      // The writes the rolled-back part left waiting for the commit go with it.
      tx.beforeCommit.length = waiting;
      throw error;
    }
  }
}

/**
 * The connection pool. A server that accepts no connection (down, cut, black-holed) fails the
 * request after `connectTimeoutMs` instead of holding it forever. Broken connections leave the
 * pool and new ones are made on demand: recovery needs no restart.
 */
function createPool(connection: McpDatabaseConnection): TransactionRoutingPool {
  const pool = new TransactionRoutingPool({
    connectionString: connection.url,
    max: connection.poolSize ?? 10,
    // A transaction sends BEGIN with its first statement, and its last writes with COMMIT (see SqlTransaction).
    pipeline: true,
    connectionTimeoutMillis: connection.connectTimeoutMs ?? 5_000,
  });
  // An idle connection that dies is removed by the pool itself; this listener only keeps the
  // process alive until the adapter adds its own.
  pool.on('error', () => undefined);
  releaseDeadConnections(pool);
  return pool;
}

/**
 * A connection that dies while checked out for a transaction may never be given back (Prisma
 * releases the ones it checks out only after a successful COMMIT or ROLLBACK, which a dead
 * connection cannot run). Each one would count against the pool size for good and `pool.end()`
 * would wait for it forever. So a checked-out connection that errors or ends is released here,
 * with its error (the pool then discards it); any later release of it is a no-op.
 */
function releaseDeadConnections(pool: pg.Pool): void {
  type Pooled = pg.PoolClient & { release: (error?: Error | boolean) => void };
  const checkedOut = new Set<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_error, client) => checkedOut.delete(client));
  pool.on('remove', (client) => checkedOut.delete(client));
  pool.on('connect', (client) => {
    let dead = false;
    const onDead = (error: Error) => {
      if (dead) return;
      dead = true;
      // After the callbacks of its failed queries, which may release it themselves.
      setImmediate(() => {
        if (!checkedOut.has(client)) return;
        checkedOut.delete(client);
        const pooled = client as Pooled;
        const release = pooled.release;
        pooled.release = () => undefined;
        try {
          release(error);
        } catch {
          // released meanwhile
        }
      });
    };
    client.on('error', onDead);
    client.once('end', () => onDead(new Error('Connection ended')));
  });
}
