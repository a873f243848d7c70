import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy to Redis that can be stopped, restarted on the same port, and stalled. */
export async function tcpProxy(targetPort: number, targetHost: string) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  let stalled = false;
  const held: Array<() => void> = [];
  const start = async () => {
    server = createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => sockets.delete(socket));
      }
      client.on('data', (chunk) => upstream.write(chunk));
      upstream.on('data', (chunk) => (stalled ? held.push(() => client.write(chunk)) : client.write(chunk)));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  };
  await start();
  return {
    host: '127.0.0.1',
    get port() {
      return port;
    },
    start,
    stall(on: boolean) {
      stalled = on;
      if (!on) held.splice(0).forEach((release) => release());
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (server?.listening) await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
  };
}
