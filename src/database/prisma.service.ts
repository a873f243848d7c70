import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { RequestContext } from '../context/request-context.js';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { resourceChangesExtension } from '../streams/resource-changes.extension.js';
import { channelStampExtension } from './channel-stamp.extension.js';
import { asDatabaseUnavailable } from './database-unavailable.js';
import type { TransactionClient } from './prisma.types.js';

/** Any query that fails because the database is unreachable throws `DatabaseUnavailableException` (503 + Retry-After). */
const databaseUnavailableExtension = Prisma.defineExtension({
  name: 'database-unavailable',
  query: {
    async $allOperations({ args, query }) {
      try {
        return await query(args);
      } catch (error) {
        throw asDatabaseUnavailable(error);
      }
    },
  },
});

/**
 * The connection pool. A server that accepts no connection (down, cut, black-holed) fails the
 * request after `DATABASE_CONNECT_TIMEOUT_MS` instead of holding it forever (pg's default is no
 * limit). Broken connections leave the pool and new ones are made on demand: recovery needs no
 * restart.
 */
function createPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    connectionTimeoutMillis: Number(process.env.DATABASE_CONNECT_TIMEOUT_MS ?? 5_000),
  });
  // An idle connection that dies is removed by the pool itself; this listener only keeps the
  // process alive until the adapter adds its own.
  pool.on('error', () => undefined);
  releaseDeadConnections(pool);
  return pool;
}

/**
 * A connection that dies while checked out for an interactive transaction is never given back:
 * Prisma 6.19 releases it only after a successful COMMIT or ROLLBACK, which a dead connection
 * cannot run. Each one would count against the pool size for good (after a few outages no
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

function createClient(connectionString: string) {
  const adapter = new PrismaPg(createPool(connectionString), { disposeExternalPool: true });
  return new PrismaClient({ adapter })
    .$extends(channelStampExtension)
    .$extends(resourceChangesExtension)
    .$extends(databaseUnavailableExtension);
}

export type ExtendedPrismaClient = ReturnType<typeof createClient>;

/**
 * The database. `db` is the client services use: inside a request that runs in a transaction it
 * is that transaction, so a service's writes commit or roll back with the request's audit event.
 */
@Injectable()
export class PrismaService implements OnModuleDestroy {
  readonly client: ExtendedPrismaClient;
  private savepoints = 0;
  /** Work to run once a transaction has ended, committed or rolled back (see `afterTransaction`). */
  private readonly afterEnd = new WeakMap<TransactionClient, Array<() => Promise<unknown>>>();
  /** Work to run only if a transaction commits (see `afterCommit`). */
  private readonly onCommit = new WeakMap<TransactionClient, Array<() => void>>();

  constructor() {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set: prepareDatabase() must run before the application is created');
    this.client = createClient(url);
  }

  get db(): TransactionClient {
    return RequestContext.current()?.transaction ?? (this.client as unknown as TransactionClient);
  }

  /**
   * Runs `work` in one transaction bound to the current request context; nested calls join the
   * open transaction instead of starting another. With `savepoint`, a nested call that fails rolls
   * back only its own writes (a SAVEPOINT of the open transaction), and the outer work goes on.
   */
  async transaction<T>(work: (tx: TransactionClient) => Promise<T>, options: { savepoint?: boolean } = {}): Promise<T> {
    const state = RequestContext.current();
    if (state?.transaction) return options.savepoint ? this.inSavepoint(state.transaction, work) : work(state.transaction);
    // BEGIN and COMMIT are not queries of the extension above: map their connection errors here.
    let open: TransactionClient | undefined;
    return this.client
      .$transaction(
        async (tx) => {
          open = tx as unknown as TransactionClient;
          if (state) state.transaction = open;
          try {
            return await work(tx as unknown as TransactionClient);
          } finally {
            if (state) state.transaction = undefined;
          }
        },
        { timeout: 15_000, maxWait: 10_000 },
      )
      .then((result) => {
        this.runOnCommit(open);
        return result;
      })
      .catch((error: unknown) => {
        throw asDatabaseUnavailable(error);
      })
      .finally(() => {
        if (open) this.onCommit.delete(open);
        return this.runAfterEnd(open);
      });
  }

  /**
   * Runs `work` once the request's open transaction has ended, whether it committed or rolled
   * back; at once when none is open. For a write that must stick although the call it belongs to
   * fails: written outside the transaction while it is open, it would need a second connection,
   * which the embedded database (one connection at a time) cannot give until the transaction ends.
   */
  async afterTransaction(work: () => Promise<unknown>): Promise<void> {
    const tx = RequestContext.current()?.transaction;
    if (!tx) {
      await work();
      return;
    }
    const queue = this.afterEnd.get(tx) ?? [];
    queue.push(work);
    this.afterEnd.set(tx, queue);
  }

  /**
   * Runs `work` once the request's open transaction has committed, never if it rolls back; at
   * once when none is open (the write before it is already committed). For announcing a change
   * to others (e.g. resource-updated notifications), which must not announce what never happened.
   * `work` must not throw; it is not awaited.
   */
  afterCommit(work: () => void): void {
    const tx = RequestContext.current()?.transaction;
    if (!tx) {
      work();
      return;
    }
    const queue = this.onCommit.get(tx) ?? [];
    queue.push(work);
    this.onCommit.set(tx, queue);
  }

  private runOnCommit(tx: TransactionClient | undefined): void {
    const queue = tx && this.onCommit.get(tx);
    if (!queue) return;
    this.onCommit.delete(tx);
    for (const work of queue) work();
  }

  private async runAfterEnd(tx: TransactionClient | undefined): Promise<void> {
    const queue = tx && this.afterEnd.get(tx);
    if (!queue) return;
    this.afterEnd.delete(tx);
    for (const work of queue) await work();
  }

  private async inSavepoint<T>(tx: TransactionClient, work: (tx: TransactionClient) => Promise<T>): Promise<T> {
    const name = `nested_${++this.savepoints}`;
    await tx.$executeRawUnsafe(`SAVEPOINT ${name}`);
    try {
      const result = await work(tx);
      await tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${name}`);
      throw error;
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.$disconnect();
  }
}
