import { Injectable } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { channelStampExtension, databaseUnavailableExtension, McpDatabase, type McpDatabaseConnection } from '@nest-mcp/prisma';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { RequestContext } from '../context/request-context.js';
import { resourceChangesExtension } from './resource-changes.extension.js';
import type { TransactionClient } from './prisma.types.js';

/** The database `PrismaService` connects to: the database section (`DATABASE_CONFIG`), with the URL in use (DATABASE_URL or the embedded one). */
/** `preparedStatements`: whether `prepared` may name statements (DATABASE_PREPARED_STATEMENTS; default true). */
export type DatabaseConnection = McpDatabaseConnection & { readonly url: string; readonly preparedStatements?: boolean };

function createClient(database: McpDatabase) {
  return (
    new PrismaClient({ adapter: new PrismaPg(database.pool) })
      // Outside an MCP call, the channel of the request being served (`api`, `panel`) or of the
      // work that opened a context (`system` for the demo seed); no context: the write fails.
      .$extends(channelStampExtension(Prisma, () => RequestContext.current()?.channel))
      .$extends(resourceChangesExtension)
      .$extends(databaseUnavailableExtension(database))
  );
}

export type ExtendedPrismaClient = ReturnType<typeof createClient>;

/**
 * The database: `@nest-mcp/prisma`'s unit of work (`McpDatabase`: the pool, transactions bound to
 * the calling context) with this app's Prisma client built on its pool. Services write through
 * `db`; inside `transaction(…)` every query they make runs in that transaction, so a service's
 * writes commit or roll back with the request's audit row.
 */
@Injectable()
export class PrismaService extends McpDatabase {
  readonly client: ExtendedPrismaClient;
  private embedded?: Promise<boolean>;
  /** The name of each prepared statement, by its text. */
  private readonly preparedNames = new Map<string, string>();
  /** Whether statements may be prepared (not on the embedded database), once known. */
  private preparable?: boolean;

  constructor(connection: DatabaseConnection) {
    super(connection);
    this.client = createClient(this);
    if (connection.preparedStatements === false) this.preparable = false;
  }

  /** The client services use: in a transaction when the calling code runs inside one. */
  get db(): TransactionClient {
    return this.client as unknown as TransactionClient;
  }

  /** `McpDatabase.transaction`, handing the work the client (which joins the transaction). */
  override transaction<T>(
    work: (tx: TransactionClient) => Promise<T>,
    options: { savepoint?: boolean; limitMs?: number } = {},
  ): Promise<T> {
    return super.transaction(() => work(this.db), options);
  }

  /**
   * Writes of long work that must not wait for the call's transaction (an export's parts, stored
   * as they are made: a pending file the call marks ready at its end, src/billing/attachments).
   * Placed as `readBeforeWrites` places reads: outside the call's transaction while it has sent
   * nothing, each committing on its own (on the embedded database, other requests run between
   * them); inside it once it has started (a write outside would then wait for it: for itself),
   * going with its commit or rollback. `work` must await its queries itself.
   */
  writeBeforeWrites<T>(work: () => Promise<T>): Promise<T> {
    return this.readBeforeWrites(work);
  }

  /**
   * Whether the database is the embedded PGlite: one backend in this process for every connection,
   * serving one unit of work at a time, each query holding the event loop while it runs. Long work
   * paces itself there. Asked once (placed as a read of long work: it must not start the caller's
   * transaction), then remembered.
   */
  isEmbedded(): Promise<boolean> {
    this.embedded ??= this.readBeforeWrites(() => this.sql<{ version: string }>(Prisma.sql`SELECT version()`)).then(
      ({ rows }) => !!rows[0]?.version.includes('PGlite'),
      (error: unknown) => {
        this.embedded = undefined;
        throw error;
      },
    );
    return this.embedded;
  }

  /**
   * `sql`, sent as a named prepared statement (`name`, numbered per distinct text): PostgreSQL
   * parses it once per connection and, after five runs, keeps a generic plan when that costs no
   * more than planning each run. For a hot read whose text takes a few shapes (one per set of
   * filters): planning the invoice search on every call cost PostgreSQL more than running it
   * (bench/README.md, case 6). Not on the embedded database, whose connections share one session
   * (and so one set of statement names), nor with `preparedStatements: false` (a pooler that does
   * not keep them): there it is `sql`.
   */
  async prepared<Row = Record<string, unknown>>(name: string, statement: Prisma.Sql): Promise<{ rows: Row[]; rowCount: number }> {
    this.preparable ??= !(await this.isEmbedded());
    if (!this.preparable) return this.sql<Row>(statement);
    let named = this.preparedNames.get(statement.text);
    if (named === undefined) this.preparedNames.set(statement.text, (named = `${name}_${this.preparedNames.size}`));
    return this.sql<Row>(statement, { name: named });
  }

  /** The client first, then the pool it runs on (`McpDatabase`). */
  override async onApplicationShutdown(): Promise<void> {
    await this.client.$disconnect();
    await super.onApplicationShutdown();
  }
}
