import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { resourceChangesExtension } from './resource-changes.extension.js';
import { channelStampExtension } from './channel-stamp.extension.js';
import { asDatabaseUnavailable } from './database-unavailable.js';
import type { DatabaseConfig } from '../config/environment.js';
import type { TransactionClient } from './prisma.types.js';
import { SqlTransaction, SqlTransactionScope, TransactionExpiredError } from './sql-transaction.js';
import { TransactionRoutingPool } from './transaction-routing.pool.js';

/** The database `PrismaService` connects to: the database section (`DATABASE_CONFIG`), with the URL in use (DATABASE_URL or the embedded one). */
export type DatabaseConnection = Pick<DatabaseConfig, 'poolSize' | 'connectTimeoutMs' | 'retryAfterSeconds'> & { readonly url: string };

/** Any query that fails because the database is unreachable throws `DatabaseUnavailableException` (503 + Retry-After). */
function databaseUnavailableExtension(retryAfterSeconds: number) {
  return Prisma.defineExtension({
    name: 'database-unavailable',
    query: {
      async $allOperations({ args, query }) {
        try {
          return await query(args);
        } catch (error) {
          throw asDatabaseUnavailable(error, retryAfterSeconds);
        }
      },
    },
  });
}

/**
 * The connection pool. A server that accepts no connection (down, cut, black-holed) fails the
 * request after `DATABASE_CONNECT_TIMEOUT_MS` instead of holding it forever (pg's default is no
 * limit). Broken connections leave the pool and new ones are made on demand: recovery needs no
 * restart.
 */
function createPool(connection: DatabaseConnection): TransactionRoutingPool {
  const pool = new TransactionRoutingPool({
    connectionString: connection.url,
    max: connection.poolSize,
    // A transaction sends BEGIN with its first statement, and its last writes with COMMIT (see SqlTransaction).
    pipeline: true,
    connectionTimeoutMillis: connection.connectTimeoutMs,
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
 * connection cannot run). Each one would count against the pool size for good (after a few outages no
 * connection could be opened at all) and `pool.end()` would wait for it forever. So a checked-out
 * connection that errors or ends is released here, with its error (the pool then discards it);
 * any later release of it is a no-op.
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

function createClient(pool: pg.Pool, retryAfterSeconds: number) {
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  return new PrismaClient({ adapter })
    .$extends(channelStampExtension)
    .$extends(resourceChangesExtension)
    .$extends(databaseUnavailableExtension(retryAfterSeconds));
}

export type ExtendedPrismaClient = ReturnType<typeof createClient>;

/**
 * The database. Services write through `db`; inside `transaction(…)` every query they make runs
 * in that transaction (see `TransactionRoutingPool`), so a service's writes commit or roll back
 * with the request's audit event.
 */
@Injectable()
export class PrismaService implements OnApplicationShutdown {
  readonly client: ExtendedPrismaClient;
  /** How long a transaction may stay open before it is rolled back (a stuck call must not hold a connection). */
  transactionLimitMs = 15_000;
  /** The database's URL: for the connections of its own that another component opens (LISTEN, pg-boss). */
  readonly url: string;
  private readonly pool: TransactionRoutingPool;
  private readonly retryAfterSeconds: number;

  constructor(connection: DatabaseConnection) {
    this.url = connection.url;
    this.retryAfterSeconds = connection.retryAfterSeconds;
    this.pool = createPool(connection);
    this.client = createClient(this.pool, connection.retryAfterSeconds);
  }

  /** The client services use: in a transaction when the calling code runs inside one. */
  get db(): TransactionClient {
    return this.client as unknown as TransactionClient;
  }

  /** Whether the calling code runs inside an open transaction. */
  get inTransaction(): boolean {
    return SqlTransactionScope.current() !== undefined;
  }

  /**
   * One statement written with `Prisma.sql`, sent straight to the driver (in the open transaction,
   * if any): for the layer's own statements on the hot path of every call (idempotency keys,
   * audit rows), which do not need the ORM's per-query work. Rows come back as `pg` parses them.
   */
  async sql<Row = Record<string, unknown>>(statement: Prisma.Sql): Promise<{ rows: Row[]; rowCount: number }> {
    try {
      // Text and values apart: pg copies a config object before every query, not a string.
      const result = await this.pool.query<Row & pg.QueryResultRow>(statement.text, statement.values);
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
  async sqlBeforeCommit(statement: Prisma.Sql): Promise<void> {
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
  async transaction<T>(work: (tx: TransactionClient) => Promise<T>, options: { savepoint?: boolean; limitMs?: number } = {}): Promise<T> {
    const open = SqlTransactionScope.current();
    if (open) return options.savepoint ? this.inSavepoint(open, work) : work(this.db);

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
      const result = await SqlTransactionScope.run(tx, async () => await work(this.db));
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
   * the embedded database (one connection at a time) cannot give until the transaction ends.
   */
  async afterTransaction(work: () => Promise<unknown>): Promise<void> {
    const tx = SqlTransactionScope.current();
    if (tx) tx.afterEnd.push(work);
    else await work();
  }

  /**
   * Runs `work` on the pool's own connections, outside the calling context's transaction if one
   * is open: for state that belongs to no one call (stream mode's sessions, events, bus) and must
   * neither wait for a call's commit nor go with its rollback. `work` must await its queries
   * itself (a Prisma query runs in the context that awaits it). On the embedded database (one
   * backend) such a query waits until the open transaction ends: do not await it from inside one.
   */
  outsideTransaction<T>(work: () => Promise<T>): Promise<T> {
    return SqlTransactionScope.outside(work);
  }

  /**
   * The reads of long work that writes only at its end (a statement export, which reads a year of
   * rows page by page before it stores one file): outside the open transaction while that
   * transaction has sent nothing (its `BEGIN` waits for the first statement, so for the database
   * none is open), inside it once it has started. Reading before the transaction starts holds no
   * snapshot or lock for the minutes the reads take, and on the embedded database (one backend,
   * given to one connection at a time) lets other requests run between them; once the transaction
   * has started, a read outside it would wait there for the transaction, i.e. for itself. `work`
   * must await its queries itself, and write nothing.
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

  private async inSavepoint<T>(tx: SqlTransaction, work: (tx: TransactionClient) => Promise<T>): Promise<T> {
    const name = tx.nextSavepoint();
    const waiting = tx.beforeCommit.length;
    await tx.send(`SAVEPOINT ${name}`);
    try {
      const result = await work(this.db);
      await tx.send(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await tx.send(`ROLLBACK TO SAVEPOINT ${name}`);
      // The writes the rolled-back part left waiting for the commit go with it.
      tx.beforeCommit.length = waiting;
      throw error;
    }
  }

  /**
   * Last, after every module's own destroy hook: Nest destroys the most imported modules first (this
   * one), and the others still need the database to finish (an MCP task stopped at shutdown rolls
   * its transaction back and puts its job back in the queue).
   */
  async onApplicationShutdown(): Promise<void> {
    await this.client.$disconnect();
  }
}

/**
 * Writes waiting for the commit as one statement: each a data-modifying `WITH` query, which
 * PostgreSQL runs whether or not the outer query reads it. They must not touch the same rows
 * (they all see the snapshot taken before any of them): the callers write separate tables.
 * Each write's placeholders are numbered after the previous writes' values, straight from its
 * template's strings (values are parameters, never text).
 */
export function combinedWrites(writes: readonly Prisma.Sql[]): pg.QueryConfig {
  if (writes.length === 1) return { text: writes[0].text, values: writes[0].values };
  const values: unknown[] = [];
  const parts = writes.map((write, i) => {
    let text = `w${i} AS (${write.strings[0]}`;
    for (let n = 1; n < write.strings.length; n++) text += `$${values.length + n}${write.strings[n]}`;
    values.push(...write.values);
    return `${text})`;
  });
  return { text: `WITH ${parts.join(', ')} SELECT 1`, values };
}
