import { connect, createServer } from 'node:net';
/**
 * A TCP proxy between the application and its PostgreSQL, to cut the database away without
 * touching the server (other tests and engineers share it): `cut()` destroys every connection and
 * stops listening (new connections are refused), `restore()` listens again on the same port.
 */
export class TcpProxy {
    target;
    port;
    server;
    sockets = new Set();
    /** Connections accepted so far, and connections destroyed by `cut()`. */
    accepted = 0;
    severed = 0;
    constructor(target, port) {
        this.target = target;
        this.port = port;
    }
    /** Listens on a free loopback port and forwards to `target`. */
    static async start(target) {
        const probe = createServer();
        await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
        const port = probe.address().port;
        await new Promise((resolve) => probe.close(() => resolve()));
        const proxy = new TcpProxy(target, port);
        await proxy.restore();
        return proxy;
    }
    /** Same URL as `databaseUrl`, through this proxy. */
    url(databaseUrl) {
        const url = new URL(databaseUrl);
        url.hostname = '127.0.0.1';
        url.port = String(this.port);
        return url.toString();
    }
    get listening() {
        return !!this.server;
    }
    async restore() {
        if (this.server)
            return;
        const server = createServer((client) => {
            this.accepted++;
            const upstream = connect(this.target.port, this.target.host);
            this.sockets.add(client).add(upstream);
            const drop = () => {
                client.destroy();
                upstream.destroy();
                this.sockets.delete(client);
                this.sockets.delete(upstream);
            };
            for (const socket of [client, upstream]) {
                socket.on('error', drop);
                socket.on('close', drop);
            }
            client.pipe(upstream).pipe(client);
        });
        // A port just released may still be held for a moment: retry briefly.
        for (let attempt = 1;; attempt++) {
            try {
                await new Promise((resolve, reject) => {
                    server.once('error', reject);
                    server.listen(this.port, '127.0.0.1', () => {
                        server.off('error', reject);
                        resolve();
                    });
                });
                break;
            }
            catch (error) {
                if (error.code !== 'EADDRINUSE' || attempt >= 50)
                    throw error;
                await new Promise((resolve) => setTimeout(resolve, 100));
            }
        }
        this.server = server;
    }
    /** Every connection is destroyed at once and new ones are refused until `restore()`. */
    async cut() {
        const server = this.server;
        this.server = undefined;
        const closed = server ? new Promise((resolve) => server.close(() => resolve())) : Promise.resolve();
        this.severed += this.sockets.size / 2;
        for (const socket of this.sockets)
            socket.destroy();
        this.sockets.clear();
        await closed;
    }
    async close() {
        await this.cut();
    }
}
/** host and port of a postgresql:// URL. */
export function hostPort(databaseUrl) {
    const url = new URL(databaseUrl);
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 5432) };
}
//# sourceMappingURL=tcp-proxy.js.map