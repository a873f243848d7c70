import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy between the application and its PostgreSQL, to cut the database away without
 * touching the server (other tests and engineers share it): `cut()` destroys every connection and
 * stops listening (new connections are refused), `restore()` listens again on the same port.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  /** Connections accepted so far, and connections destroyed by `cut()`. */
  accepted = 0;
  severed = 0;

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {}

  /** Listens on a free loopback port and forwards to `target`. */
  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const proxy = new TcpProxy(target, port);
    await proxy.restore();
    return proxy;
  }

  /** Same URL as `databaseUrl`, through this proxy. */
  url(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  get listening(): boolean {
    return !!this.server;
  }

  async restore(): Promise<void> {
    if (this.server) return;
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
    for (let attempt = 1; ; attempt++) {
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(this.port, '127.0.0.1', () => {
            server.off('error', reject);
            resolve();
          });
        });
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'EADDRINUSE' || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    this.server = server;
  }

  /** Every connection is destroyed at once and new ones are refused until `restore()`. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    this.severed += this.sockets.size / 2;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }

  async close(): Promise<void> {
    await this.cut();
  }
}

/** host and port of a postgresql:// URL. */
export function hostPort(databaseUrl: string): { host: string; port: number } {
  const url = new URL(databaseUrl);
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 5432) };
}
