import { isAbsolute, join } from 'node:path';
import { DEFAULT_DATA_DIR, EmbeddedPostgres, EmbeddedPostgresBusyError, findRunningEmbedded, readState } from './embedded-postgres.js';
import { findProjectRoot, migrationsUpToDate, redactDatabaseUrl, runMigrations, describeApplied } from './migrations.js';

export interface PrepareDatabaseOptions {
  /** The server to use (`DatabaseConfig.url`, from DATABASE_URL); unset: the embedded database. */
  url?: string;
  /**
   * Where the embedded database keeps its files when `url` is unset. Default
   * `.data/pglite` under the project root; `null` → in memory (gone when closed).
   */
  dataDir?: string | null;
  /** Progress and timings, one line each. Silent when omitted. */
  logger?: (line: string) => void;
  /**
   * Apply the pending migrations ({@link runMigrations}, Prisma's bookkeeping)? Default: only when
   * this call started the embedded database. A quick read of `_prisma_migrations` first: nothing
   * more when it already lists every migration with its checksum.
   * A server given by `url` is not migrated unless `true` (deploy migrations separately:
   * `node scripts/prisma.mjs migrate deploy`); an embedded server started by another process was
   * migrated by that process before it announced itself.
   */
  migrate?: boolean;
  /** How long to wait for an embedded server that another process is still starting. Default 60 s. */
  waitForStartingMs?: number;
}

export interface PreparedDatabase {
  /** The URL the application uses: hand it to the application (the `database.url` of the settings given to `AppModule.forRoot`). */
  url: string;
  /** true when the database is the embedded PGlite (started here or reused). */
  embedded: boolean;
  /** How the database was obtained. */
  source: 'env' | 'started' | 'reused';
  /** Milliseconds: starting the embedded server, migrations, and the whole call. */
  timings: { startMs: number; migrateMs: number; totalMs: number };
  /** Stops the embedded server if this call started it (a no-op otherwise). */
  close(): Promise<void>;
}

/**
 * Makes a migrated database available and answers its URL (the environment is left alone):
 * - `url` given (DATABASE_URL) → that server;
 * - else the embedded server another process runs on the same data directory (e.g. `npm start`
 *   while the token CLI runs), found through `.data/embedded-postgres.json`;
 * - else starts the embedded server (PGlite) on the data directory and applies the migrations,
 *   then announces it to other processes.
 */
export async function prepareDatabase(options: PrepareDatabaseOptions = {}): Promise<PreparedDatabase> {
  const log = options.logger ?? (() => undefined);
  const began = performance.now();
  let startMs = 0;
  let migrateMs = 0;

  const migrate = async (url: string) => {
    const t = performance.now();
    if (await migrationsUpToDate(url)) {
      migrateMs = Math.round(performance.now() - t);
      log(`Migrations up to date (checked in ${migrateMs} ms)`);
      return;
    }
    const applied = await runMigrations(url);
    migrateMs = Math.round(performance.now() - t);
    log(`${describeApplied(applied)} in ${migrateMs} ms`);
  };
  const result = (url: string, source: PreparedDatabase['source'], stop?: () => Promise<void>): PreparedDatabase => {
    const totalMs = Math.round(performance.now() - began);
    log(`Database ready in ${totalMs} ms (${source === 'env' ? 'DATABASE_URL' : `embedded, ${source}`}: ${redactDatabaseUrl(url)})`);
    let closed = false;
    return {
      url,
      embedded: source !== 'env',
      source,
      timings: { startMs, migrateMs, totalMs },
      close: async () => {
        if (closed) return;
        closed = true;
        await stop?.();
      },
    };
  };

  if (options.url) {
    if (options.migrate === true) await migrate(options.url);
    return result(options.url, 'env');
  }

  const dataDir =
    options.dataDir === null
      ? undefined
      : options.dataDir === undefined
        ? join(findProjectRoot(), DEFAULT_DATA_DIR)
        : isAbsolute(options.dataDir)
          ? options.dataDir
          : join(process.cwd(), options.dataDir);

  const waitMs = options.waitForStartingMs ?? 60_000;
  for (let attempt = 0; ; attempt++) {
    if (dataDir) {
      const running = await findRunningEmbedded(dataDir, { waitMs });
      if (running) {
        log(`Using the embedded PostgreSQL already running for ${dataDir} (process ${readState(dataDir)?.pid})`);
        if (options.migrate === true) await migrate(running);
        return result(running, 'reused');
      }
    }
    const t = performance.now();
    let embedded: EmbeddedPostgres;
    try {
      embedded = await EmbeddedPostgres.start({ dataDir, announce: false });
    } catch (error) {
      // Another process claimed the data directory between our look and our start: use it.
      if (error instanceof EmbeddedPostgresBusyError && attempt < 3) continue;
      throw error;
    }
    startMs = Math.round(performance.now() - t);
    log(`Embedded PostgreSQL (PGlite, ${dataDir ?? 'in memory'}) started in ${startMs} ms at ${embedded.url}`);
    try {
      if (options.migrate !== false) await migrate(embedded.url);
    } catch (error) {
      await embedded.stop().catch(() => undefined);
      throw error;
    }
    embedded.announce();
    return result(embedded.url, 'started', () => embedded.stop());
  }
}
