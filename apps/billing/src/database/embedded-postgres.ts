import { PGlite } from '@electric-sql/pglite';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * An embedded PostgreSQL for zero-setup runs: PGlite (Postgres compiled to WebAssembly, in this
 * process) served on a loopback TCP port with the Postgres wire protocol, so `pg`, Prisma's
 * `@prisma/adapter-pg` and the Prisma CLI connect to it like to any server.
 *
 * PGlite is ONE Postgres backend (one session). This server accepts many connections and gives
 * the backend to one connection at a time, for a whole unit of work: from the connection's first
 * message until the backend is idle again outside a transaction (after a Sync or simple Query, with
 * no transaction block open). So an extended-protocol exchange (Parse/Bind/Execute/Sync) or a
 * BEGIN…COMMIT block never interleaves with another connection's messages; other connections
 * queue, first come first served.
 *
 * Why not `PGLiteSocketServer` from `@electric-sql/pglite-socket` 0.2.17: its queue interleaves
 * connections message by message outside explicit transactions. When a message spans several TCP
 * reads (a parameter of a few hundred KB), another connection's Parse/Bind runs between this
 * connection's Parse and Bind on the shared unnamed statement, and a query executes with the
 * other's statement or parameters (reproduced: "invalid input syntax for type integer" carrying
 * the other query's text parameter). See embedded-postgres.spec.ts.
 *
 * Consequences of the single backend (true of any PGlite server): a connection inside a
 * transaction blocks all others until it commits or rolls back; session state (SET, prepared
 * statement names, temporary tables, LISTEN) is shared by every connection; CancelRequest is not
 * supported; the user and database names in the URL are ignored (it is always `postgres`).
 */

/** Default data directory of the development database, relative to the project root. */
export const DEFAULT_DATA_DIR = '.data/pglite';
/** Name of the file announcing a running server, beside the data directory. */
export const STATE_FILE_NAME = 'embedded-postgres.json';

export interface EmbeddedPostgresOptions {
  /** Data directory; omitted → in-memory database (tests). Created (initdb) when missing. */
  dataDir?: string;
  /** Initial contents for an in-memory database, from {@link EmbeddedPostgres.dump} (a tarball). */
  loadDataDir?: Blob;
  /** Loopback address to bind. Default 127.0.0.1. */
  host?: string;
  /** TCP port; 0 (default) picks a free one, see {@link EmbeddedPostgres.port}. */
  port?: number;
  /** Connections accepted at once (they share one backend, see above). Default 32. */
  maxConnections?: number;
  /**
   * With a data directory: announce the server in `<parent of dataDir>/embedded-postgres.json`
   * as soon as it listens (default true). `false` leaves the announcement "starting" until
   * {@link EmbeddedPostgres.announce} is called, e.g. after migrations, so that other processes
   * do not use a database that is not migrated yet.
   */
  announce?: boolean;
}

/** Contents of embedded-postgres.json. */
export interface EmbeddedPostgresState {
  pid: number;
  dataDir: string;
  /** false while the owner is starting or migrating; other processes wait. */
  ready: boolean;
  port?: number;
  url?: string;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const MAX_MESSAGE = 1 << 30;

/** Path of the announcement file for a data directory. */
export function stateFilePath(dataDir: string): string {
  return join(dirname(resolve(dataDir)), STATE_FILE_NAME);
}

export class EmbeddedPostgres {
  /** postgresql://postgres@HOST:PORT/postgres */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Absolute data directory, undefined when in memory. */
  readonly dataDir: string | undefined;

  private readonly connections = new Set<Connection>();
  private readonly lock = new FifoLock();
  private stopping: Promise<void> | undefined;

  private constructor(
    private readonly db: PGlite,
    private readonly server: Server,
    host: string,
    port: number,
    dataDir: string | undefined,
    private readonly maxConnections: number,
  ) {
    this.host = host;
    this.port = port;
    this.dataDir = dataDir;
    this.url = `postgresql://postgres@${host.includes(':') ? `[${host}]` : host}:${port}/postgres`;
  }

  /**
   * Opens (or creates) the database and serves it. With a data directory it first takes the
   * announcement file exclusively: if another live process holds it, this throws
   * {@link EmbeddedPostgresBusyError} (use {@link findRunningEmbedded} to connect to it instead).
   */
  static async start(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
    const host = options.host ?? '127.0.0.1';
    const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
    if (dataDir && options.loadDataDir) throw new Error('EmbeddedPostgres: use either dataDir or loadDataDir');
    if (dataDir) claimDataDir(dataDir);
    let db: PGlite | undefined;
    try {
      if (dataDir) mkdirSync(dirname(dataDir), { recursive: true });
      db = await PGlite.create({
        ...(dataDir ? { dataDir } : {}),
        ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      });
      const server = createServer();
      await new Promise<void>((ok, fail) => {
        server.once('error', fail);
        server.listen(options.port ?? 0, host, () => {
          server.off('error', fail);
          ok();
        });
      });
      const port = (server.address() as { port: number }).port;
      const embedded = new EmbeddedPostgres(db, server, host, port, dataDir, options.maxConnections ?? 32);
      server.on('connection', (socket) => embedded.accept(socket));
      server.on('error', () => undefined);
      if (dataDir) writeState(dataDir, { pid: process.pid, dataDir, ready: false, port, url: embedded.url });
      if (dataDir && options.announce !== false) embedded.announce();
      return embedded;
    } catch (error) {
      await db?.close().catch(() => undefined);
      if (dataDir) releaseDataDir(dataDir);
      throw error;
    }
  }

  /** Marks the server ready in embedded-postgres.json: other processes may now connect to it. */
  announce(): void {
    if (this.dataDir && !this.stopping) {
      writeState(this.dataDir, { pid: process.pid, dataDir: this.dataDir, ready: true, port: this.port, url: this.url });
    }
  }

  /** Open connections and connections waiting for the backend. */
  stats(): { connections: number; waiting: number } {
    return { connections: this.connections.size, waiting: this.lock.waiting };
  }

  /**
   * A tarball of the data directory (CHECKPOINT first), to start other in-memory instances from
   * this state with `loadDataDir`. Waits for the backend to be free.
   */
  async dump(): Promise<Blob> {
    const release = await this.lock.acquire();
    try {
      await this.db.exec('CHECKPOINT');
      return await this.db.dumpDataDir('none');
    } finally {
      release();
    }
  }

  /** Closes every connection, stops listening, shuts PGlite down cleanly, removes the announcement. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const closed = new Promise<void>((ok) => this.server.close(() => ok()));
      for (const connection of this.connections) connection.destroy();
      await closed;
      // Let the connection that holds the backend finish its current message and clean up.
      const release = await this.lock.acquire();
      try {
        if (this.db.isInTransaction()) await this.db.exec('ROLLBACK').catch(() => undefined);
        await this.db.close();
      } finally {
        release();
        if (this.dataDir) releaseDataDir(this.dataDir);
      }
    })();
    return this.stopping;
  }

  private accept(socket: Socket): void {
    if (this.stopping) return void socket.destroy();
    if (this.connections.size >= this.maxConnections) {
      socket.on('error', () => undefined);
      socket.end(errorResponse('53300', 'sorry, too many clients already'), () => socket.destroy());
      return;
    }
    const connection = new Connection(socket, this.db, this.lock, () => this.connections.delete(connection));
    this.connections.add(connection);
  }
}

/** Thrown by {@link EmbeddedPostgres.start} when another live process owns the data directory. */
export class EmbeddedPostgresBusyError extends Error {
  constructor(readonly state: EmbeddedPostgresState) {
    super(
      `The embedded database ${state.dataDir} is in use by process ${state.pid}` +
        (state.ready ? ` at ${state.url}` : ' (starting)') +
        `; if that process is gone, delete ${stateFilePath(state.dataDir)}`,
    );
  }
}

/**
 * The URL of the embedded server running for `dataDir` in another (or this) process: the
 * announcement file exists, says ready, its process is alive and its port accepts a connection.
 * Otherwise undefined (a stale file is ignored). With `waitMs`, waits that long for a server that is
 * still starting (its owner alive, not ready yet).
 */
export async function findRunningEmbedded(
  dataDir: string = DEFAULT_DATA_DIR,
  { waitMs = 0 }: { waitMs?: number } = {},
): Promise<string | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const state = readState(dataDir);
    if (!state || !isAlive(state.pid)) return undefined;
    if (state.ready && state.url && state.port) {
      return (await portAcceptsConnection(state.port, new URL(state.url).hostname.replace(/^\[|\]$/g, ''))) ? state.url : undefined;
    }
    if (Date.now() >= deadline) return undefined;
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

/** The announcement file for `dataDir`, if present and for that data directory. */
export function readState(dataDir: string): EmbeddedPostgresState | undefined {
  const state = readStateFile(stateFilePath(dataDir));
  return state?.dataDir === resolve(dataDir) ? state : undefined;
}

function readStateFile(file: string): EmbeddedPostgresState | undefined {
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as EmbeddedPostgresState;
    return typeof state.pid === 'number' && typeof state.dataDir === 'string' ? state : undefined;
  } catch {
    return undefined;
  }
}

/** One client connection: frames its messages and runs them on the backend while holding the lock. */
class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;
  private readonly pending: Array<{ type: string; message: Uint8Array }> = [];
  private pumping = false;
  private release: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly socket: Socket,
    private readonly db: PGlite,
    private readonly lock: FifoLock,
    private readonly onClose: () => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => this.destroy());
    socket.on('close', () => this.destroy());
  }

  destroy(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending.length = 0;
    this.socket.destroy();
    this.onClose();
    // Not pumping: clean up now; pumping: the pump cleans up after its current message.
    if (!this.pumping) void this.cleanUp();
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      if (!this.started) {
        if (this.buffer.length < 8) break;
        const length = this.buffer.readInt32BE(0);
        if (length < 8 || length > 10_000) return this.destroy();
        if (this.buffer.length < length) break;
        const code = this.buffer.readInt32BE(4);
        const message = this.take(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          this.socket.write('N');
          continue;
        }
        if (code === CANCEL_REQUEST) return this.destroy(); // not supported by a single backend
        this.started = true;
        this.pending.push({ type: '', message });
      } else {
        if (this.buffer.length < 5) break;
        const length = this.buffer.readInt32BE(1) + 1;
        if (length < 5 || length > MAX_MESSAGE) return this.destroy();
        if (this.buffer.length < length) break;
        const type = String.fromCharCode(this.buffer[0]);
        const message = this.take(length);
        if (type === 'X') return this.destroy(); // Terminate
        this.pending.push({ type, message });
      }
    }
    void this.pump();
  }

  private take(length: number): Uint8Array {
    const message = new Uint8Array(this.buffer.subarray(0, length)); // a copy
    this.buffer = this.buffer.subarray(length);
    return message;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.pending.length && !this.closed) {
        const { type, message } = this.pending.shift()!;
        this.release ??= await this.lock.acquire();
        if (this.closed) break;
        await this.db.runExclusive(() =>
          this.db.execProtocolRawStream(message, {
            onRawData: (data) => {
              if (!this.closed && this.socket.writable) this.socket.write(Buffer.from(data));
            },
          }),
        );
        // The unit of work ends when the backend is idle outside a transaction block.
        if ((type === '' || type === 'Q' || type === 'S') && !this.db.isInTransaction()) this.unlock();
      }
    } catch {
      this.destroy();
    } finally {
      this.pumping = false;
      if (this.closed) await this.cleanUp();
    }
  }

  /** After a disconnect while holding the backend: end a pending extended query, roll back. */
  private async cleanUp(): Promise<void> {
    if (!this.release) return;
    try {
      await this.db.runExclusive(() => this.db.execProtocolRawStream(SYNC, { onRawData: () => undefined }));
      if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    } catch {
      // The database is closing or broken; nothing more to do for this connection.
    } finally {
      this.unlock();
    }
  }

  private unlock(): void {
    const release = this.release;
    this.release = undefined;
    release?.();
  }
}

const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

/** A mutex whose waiters are served in arrival order. */
class FifoLock {
  private locked = false;
  private readonly queue: Array<() => void> = [];

  get waiting(): number {
    return this.queue.length;
  }

  acquire(): Promise<() => void> {
    return new Promise((ok) => {
      const grant = () => {
        this.locked = true;
        let released = false;
        ok(() => {
          if (released) return;
          released = true;
          const next = this.queue.shift();
          if (next) next();
          else this.locked = false;
        });
      };
      if (this.locked) this.queue.push(grant);
      else grant();
    });
  }
}

/** A FATAL ErrorResponse message. */
function errorResponse(code: string, text: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${text}\0\0`, 'utf8');
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}

/** Creates the announcement file exclusively, taking over a stale one (its process is gone). */
function claimDataDir(dataDir: string): void {
  const file = stateFilePath(dataDir);
  mkdirSync(dirname(file), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    // Written aside, then hard-linked: the file appears atomically, complete, or not at all.
    const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.claim`);
    writeFileSync(temporary, JSON.stringify({ pid: process.pid, dataDir, ready: false } satisfies EmbeddedPostgresState));
    try {
      linkSync(temporary, file);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 5) throw error;
    } finally {
      rmSync(temporary, { force: true });
    }
    const state = readStateFile(file);
    if (state && state.pid === process.pid) {
      throw new Error(`The embedded database ${state.dataDir} is already open in this process (${file})`);
    }
    if (state && isAlive(state.pid)) {
      if (state.dataDir === dataDir) throw new EmbeddedPostgresBusyError(state);
      throw new Error(
        `${file} belongs to the embedded database ${state.dataDir} (process ${state.pid}); give ${dataDir} its own parent folder`,
      );
    }
    // Stale (its process is gone) or unreadable: take it over.
    rmSync(file, { force: true });
  }
}

function releaseDataDir(dataDir: string): void {
  if (readState(dataDir)?.pid === process.pid) rmSync(stateFilePath(dataDir), { force: true });
}

function writeState(dataDir: string, state: EmbeddedPostgresState): void {
  const file = stateFilePath(dataDir);
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  writeFileSync(temporary, JSON.stringify(state, null, 2) + '\n');
  renameSync(temporary, file);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function portAcceptsConnection(port: number, host: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((ok) => {
    const socket = createConnection({ port, host });
    const done = (result: boolean) => {
      socket.destroy();
      ok(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
