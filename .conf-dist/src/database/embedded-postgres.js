import { PGlite } from '@electric-sql/pglite';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
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
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const MAX_MESSAGE = 1 << 30;
/** Path of the announcement file for a data directory. */
export function stateFilePath(dataDir) {
    return join(dirname(resolve(dataDir)), STATE_FILE_NAME);
}
export class EmbeddedPostgres {
    db;
    server;
    maxConnections;
    /** postgresql://postgres@HOST:PORT/postgres */
    url;
    host;
    port;
    /** Absolute data directory, undefined when in memory. */
    dataDir;
    connections = new Set();
    lock = new FifoLock();
    stopping;
    constructor(db, server, host, port, dataDir, maxConnections) {
        this.db = db;
        this.server = server;
        this.maxConnections = maxConnections;
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
    static async start(options = {}) {
        const host = options.host ?? '127.0.0.1';
        const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
        if (dataDir && options.loadDataDir)
            throw new Error('EmbeddedPostgres: use either dataDir or loadDataDir');
        if (dataDir)
            claimDataDir(dataDir);
        let db;
        try {
            if (dataDir)
                mkdirSync(dirname(dataDir), { recursive: true });
            db = await PGlite.create({
                ...(dataDir ? { dataDir } : {}),
                ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
            });
            const server = createServer();
            await new Promise((ok, fail) => {
                server.once('error', fail);
                server.listen(options.port ?? 0, host, () => {
                    server.off('error', fail);
                    ok();
                });
            });
            const port = server.address().port;
            const embedded = new EmbeddedPostgres(db, server, host, port, dataDir, options.maxConnections ?? 32);
            server.on('connection', (socket) => embedded.accept(socket));
            server.on('error', () => undefined);
            if (dataDir)
                writeState(dataDir, { pid: process.pid, dataDir, ready: false, port, url: embedded.url });
            if (dataDir && options.announce !== false)
                embedded.announce();
            return embedded;
        }
        catch (error) {
            await db?.close().catch(() => undefined);
            if (dataDir)
                releaseDataDir(dataDir);
            throw error;
        }
    }
    /** Marks the server ready in embedded-postgres.json: other processes may now connect to it. */
    announce() {
        if (this.dataDir && !this.stopping) {
            writeState(this.dataDir, { pid: process.pid, dataDir: this.dataDir, ready: true, port: this.port, url: this.url });
        }
    }
    /** Open connections and connections waiting for the backend. */
    stats() {
        return { connections: this.connections.size, waiting: this.lock.waiting };
    }
    /**
     * A tarball of the data directory (CHECKPOINT first), to start other in-memory instances from
     * this state with `loadDataDir`. Waits for the backend to be free.
     */
    async dump() {
        const release = await this.lock.acquire();
        try {
            await this.db.exec('CHECKPOINT');
            return await this.db.dumpDataDir('none');
        }
        finally {
            release();
        }
    }
    /** Closes every connection, stops listening, shuts PGlite down cleanly, removes the announcement. */
    stop() {
        this.stopping ??= (async () => {
            const closed = new Promise((ok) => this.server.close(() => ok()));
            for (const connection of this.connections)
                connection.destroy();
            await closed;
            // Let the connection that holds the backend finish its current message and clean up.
            const release = await this.lock.acquire();
            try {
                if (this.db.isInTransaction())
                    await this.db.exec('ROLLBACK').catch(() => undefined);
                await this.db.close();
            }
            finally {
                release();
                if (this.dataDir)
                    releaseDataDir(this.dataDir);
            }
        })();
        return this.stopping;
    }
    accept(socket) {
        if (this.stopping)
            return void socket.destroy();
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
    state;
    constructor(state) {
        super(`The embedded database ${state.dataDir} is in use by process ${state.pid}` +
            (state.ready ? ` at ${state.url}` : ' (starting)') +
            `; if that process is gone, delete ${stateFilePath(state.dataDir)}`);
        this.state = state;
    }
}
/**
 * The URL of the embedded server running for `dataDir` in another (or this) process: the
 * announcement file exists, says ready, its process is alive and its port accepts a connection.
 * Otherwise undefined (a stale file is ignored). With `waitMs`, waits that long for a server that is
 * still starting (its owner alive, not ready yet).
 */
export async function findRunningEmbedded(dataDir = DEFAULT_DATA_DIR, { waitMs = 0 } = {}) {
    const deadline = Date.now() + waitMs;
    for (;;) {
        const state = readState(dataDir);
        if (!state || !isAlive(state.pid))
            return undefined;
        if (state.ready && state.url && state.port) {
            return (await portAcceptsConnection(state.port, new URL(state.url).hostname.replace(/^\[|\]$/g, '')))
                ? state.url
                : undefined;
        }
        if (Date.now() >= deadline)
            return undefined;
        await new Promise((ok) => setTimeout(ok, 100));
    }
}
/** The announcement file for `dataDir`, if present and for that data directory. */
export function readState(dataDir) {
    const state = readStateFile(stateFilePath(dataDir));
    return state?.dataDir === resolve(dataDir) ? state : undefined;
}
function readStateFile(file) {
    try {
        const state = JSON.parse(readFileSync(file, 'utf8'));
        return typeof state.pid === 'number' && typeof state.dataDir === 'string' ? state : undefined;
    }
    catch {
        return undefined;
    }
}
/** One client connection: frames its messages and runs them on the backend while holding the lock. */
class Connection {
    socket;
    db;
    lock;
    onClose;
    buffer = Buffer.alloc(0);
    started = false;
    pending = [];
    pumping = false;
    release;
    closed = false;
    constructor(socket, db, lock, onClose) {
        this.socket = socket;
        this.db = db;
        this.lock = lock;
        this.onClose = onClose;
        socket.setNoDelay(true);
        socket.on('data', (chunk) => this.receive(chunk));
        socket.on('error', () => this.destroy());
        socket.on('close', () => this.destroy());
    }
    destroy() {
        if (this.closed)
            return;
        this.closed = true;
        this.pending.length = 0;
        this.socket.destroy();
        this.onClose();
        // Not pumping: clean up now; pumping: the pump cleans up after its current message.
        if (!this.pumping)
            void this.cleanUp();
    }
    receive(chunk) {
        this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
        for (;;) {
            if (!this.started) {
                if (this.buffer.length < 8)
                    break;
                const length = this.buffer.readInt32BE(0);
                if (length < 8 || length > 10_000)
                    return this.destroy();
                if (this.buffer.length < length)
                    break;
                const code = this.buffer.readInt32BE(4);
                const message = this.take(length);
                if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
                    this.socket.write('N');
                    continue;
                }
                if (code === CANCEL_REQUEST)
                    return this.destroy(); // not supported by a single backend
                this.started = true;
                this.pending.push({ type: '', message });
            }
            else {
                if (this.buffer.length < 5)
                    break;
                const length = this.buffer.readInt32BE(1) + 1;
                if (length < 5 || length > MAX_MESSAGE)
                    return this.destroy();
                if (this.buffer.length < length)
                    break;
                const type = String.fromCharCode(this.buffer[0]);
                const message = this.take(length);
                if (type === 'X')
                    return this.destroy(); // Terminate
                this.pending.push({ type, message });
            }
        }
        void this.pump();
    }
    take(length) {
        const message = new Uint8Array(this.buffer.subarray(0, length)); // a copy
        this.buffer = this.buffer.subarray(length);
        return message;
    }
    async pump() {
        if (this.pumping)
            return;
        this.pumping = true;
        try {
            while (this.pending.length && !this.closed) {
                const { type, message } = this.pending.shift();
                this.release ??= await this.lock.acquire();
                if (this.closed)
                    break;
                await this.db.runExclusive(() => this.db.execProtocolRawStream(message, {
                    onRawData: (data) => {
                        if (!this.closed && this.socket.writable)
                            this.socket.write(Buffer.from(data));
                    },
                }));
                // The unit of work ends when the backend is idle outside a transaction block.
                if ((type === '' || type === 'Q' || type === 'S') && !this.db.isInTransaction())
                    this.unlock();
            }
        }
        catch {
            this.destroy();
        }
        finally {
            this.pumping = false;
            if (this.closed)
                await this.cleanUp();
        }
    }
    /** After a disconnect while holding the backend: end a pending extended query, roll back. */
    async cleanUp() {
        if (!this.release)
            return;
        try {
            await this.db.runExclusive(() => this.db.execProtocolRawStream(SYNC, { onRawData: () => undefined }));
            if (this.db.isInTransaction())
                await this.db.exec('ROLLBACK');
        }
        catch {
            // The database is closing or broken; nothing more to do for this connection.
        }
        finally {
            this.unlock();
        }
    }
    unlock() {
        const release = this.release;
        this.release = undefined;
        release?.();
    }
}
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);
/** A mutex whose waiters are served in arrival order. */
class FifoLock {
    locked = false;
    queue = [];
    get waiting() {
        return this.queue.length;
    }
    acquire() {
        return new Promise((ok) => {
            const grant = () => {
                this.locked = true;
                let released = false;
                ok(() => {
                    if (released)
                        return;
                    released = true;
                    const next = this.queue.shift();
                    if (next)
                        next();
                    else
                        this.locked = false;
                });
            };
            if (this.locked)
                this.queue.push(grant);
            else
                grant();
        });
    }
}
/** A FATAL ErrorResponse message. */
function errorResponse(code, text) {
    const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${text}\0\0`, 'utf8');
    const header = Buffer.alloc(5);
    header.write('E', 0);
    header.writeInt32BE(fields.length + 4, 1);
    return Buffer.concat([header, fields]);
}
/** Creates the announcement file exclusively, taking over a stale one (its process is gone). */
function claimDataDir(dataDir) {
    const file = stateFilePath(dataDir);
    mkdirSync(dirname(file), { recursive: true });
    for (let attempt = 0;; attempt++) {
        // Written aside, then hard-linked: the file appears atomically, complete, or not at all.
        const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.claim`);
        writeFileSync(temporary, JSON.stringify({ pid: process.pid, dataDir, ready: false }));
        try {
            linkSync(temporary, file);
            return;
        }
        catch (error) {
            if (error.code !== 'EEXIST' || attempt > 5)
                throw error;
        }
        finally {
            rmSync(temporary, { force: true });
        }
        const state = readStateFile(file);
        if (state && state.pid === process.pid) {
            throw new Error(`The embedded database ${state.dataDir} is already open in this process (${file})`);
        }
        if (state && isAlive(state.pid)) {
            if (state.dataDir === dataDir)
                throw new EmbeddedPostgresBusyError(state);
            throw new Error(`${file} belongs to the embedded database ${state.dataDir} (process ${state.pid}); give ${dataDir} its own parent folder`);
        }
        // Stale (its process is gone) or unreadable: take it over.
        rmSync(file, { force: true });
    }
}
function releaseDataDir(dataDir) {
    if (readState(dataDir)?.pid === process.pid)
        rmSync(stateFilePath(dataDir), { force: true });
}
function writeState(dataDir, state) {
    const file = stateFilePath(dataDir);
    const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
    writeFileSync(temporary, JSON.stringify(state, null, 2) + '\n');
    renameSync(temporary, file);
}
function isAlive(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch (error) {
        return error.code === 'EPERM';
    }
}
function portAcceptsConnection(port, host, timeoutMs = 1000) {
    return new Promise((ok) => {
        const socket = createConnection({ port, host });
        const done = (result) => {
            socket.destroy();
            ok(result);
        };
        socket.setTimeout(timeoutMs, () => done(false));
        socket.once('connect', () => done(true));
        socket.once('error', () => done(false));
    });
}
//# sourceMappingURL=embedded-postgres.js.map