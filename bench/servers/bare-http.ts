// What the floors (floor.ts, write-floor.ts) share: a bare `node:http` server whose handler is
// async, JSON answers, and the bench's start-up protocol.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { announceReady, exitOnSignal, HOST, PORT } from './lifecycle.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Listens on the bench's loopback port and announces itself; a handler that throws answers 500. */
export async function serveBare(handle: Handler, ready: Record<string, unknown>): Promise<void> {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) sendJson(res, 500, { message: 'internal error' });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((done) => server.listen(PORT, HOST, done));
  exitOnSignal();
  announceReady(server.address(), ready);
}
