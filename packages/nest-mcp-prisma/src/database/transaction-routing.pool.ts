import pg from 'pg';
import { SqlTransactionScope, TransactionExpiredError, type SqlTransaction } from './sql-transaction.js';

type Query = pg.Pool['query'];

/**
 * The pool Prisma's driver adapter uses. Inside an open `SqlTransaction` a query runs on the
 * transaction's connection instead of a free one, so services write through the application's
 * plain Prisma client and still commit or roll back with the call's transaction and audit row.
 *
 * Why not Prisma's interactive `$transaction`: each one costs about as much CPU as three queries
 * (its transaction manager, timers and per-query bookkeeping, as measured on an MCP write), and
 * an MCP write runs one per call. A transaction here is `BEGIN` and `COMMIT` on a pooled connection.
 *
 * A transaction Prisma starts itself inside ours (a nested write it must make atomic) asks the
 * pool for a connection: it gets the transaction's own, with its `BEGIN` / `COMMIT` / `ROLLBACK`
 * turned into a savepoint, so it neither commits ours early nor needs a second connection.
 */
export class TransactionRoutingPool extends pg.Pool {
  constructor(config: pg.PoolConfig) {
    super(config);
    const poolQuery = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => {
      const tx = SqlTransactionScope.current();
      if (!tx) return poolQuery(...args);
      if (tx.expired) return Promise.reject(new TransactionExpiredError(tx.limitMs));
      return tx.send(...args);
    }) as Query;
    const poolConnect = this.connect.bind(this) as (...args: unknown[]) => unknown;
    this.connect = ((...args: unknown[]) => {
      const tx = SqlTransactionScope.current();
      // Only the promise form: Prisma's adapter calls connect() without a callback.
      return tx && args.length === 0 ? Promise.resolve(nestedTransactionClient(tx)) : poolConnect(...args);
    }) as pg.Pool['connect'];
  }
}

/** The transaction's connection, as a client whose own transaction is a savepoint of the open one. */
function nestedTransactionClient(tx: SqlTransaction): pg.PoolClient {
  const savepoint = tx.nextSavepoint();
  const statements: Record<string, string> = {
    BEGIN: `SAVEPOINT ${savepoint}`,
    COMMIT: `RELEASE SAVEPOINT ${savepoint}`,
    ROLLBACK: `ROLLBACK TO SAVEPOINT ${savepoint}`,
  };
  const query = (config: string | pg.QueryConfig, ...rest: unknown[]) => {
    const text = typeof config === 'string' ? config : config.text;
    const replaced = statements[text.trim().toUpperCase()];
    const sent = replaced === undefined ? config : typeof config === 'string' ? replaced : { ...config, text: replaced };
    return tx.send(sent, ...rest);
  };
  return new Proxy(tx.client, {
    get(target, property, receiver) {
      if (property === 'query') return query;
      // The connection stays checked out by the outer transaction.
      if (property === 'release') return () => undefined;
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
