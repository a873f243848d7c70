import assert from 'node:assert/strict';
import { createServer, get, type Server } from 'node:http';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger, type INestApplication } from '@nestjs/common';
import { gracefulShutdown } from './graceful-shutdown.js';
import { ShutdownState } from './shutdown.state.js';

/** A listening HTTP server dressed as a Nest application: `/slow?ms=N` answers after N ms. */
async function fakeApp(close: () => Promise<void> = async () => undefined) {
  const server: Server = createServer((req, res) => {
    const ms = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms') ?? 0);
    setTimeout(() => res.end('done'), ms);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state = new ShutdownState();
  const app = { getHttpServer: () => server, get: () => state, close } as unknown as INestApplication;
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { app, state, url, server };
}

function request(url: string): Promise<{ status: number; body: string; connection?: string } | { error: string }> {
  return new Promise((resolve) => {
    get(url, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body, connection: response.headers.connection }));
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    }).on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

Logger.overrideLogger(false);

describe('gracefulShutdown', () => {
  it('lets a request in flight finish (with Connection: close), refuses new connections, then closes the app', async () => {
    let closed = false;
    const { app, state, url } = await fakeApp(async () => void (closed = true));
    const shutdown = gracefulShutdown(app, { delayMs: 0, timeoutMs: 5_000 });
    const slow = request(`${url}/slow?ms=300`);
    await sleep(50);
    const done = shutdown();
    assert.equal(state.shuttingDown, true);
    await sleep(20);
    assert.deepEqual(await request(`${url}/slow`), { error: 'ECONNREFUSED' });
    assert.deepEqual(await slow, { status: 200, body: 'done', connection: 'close' });
    const report = await done;
    assert.equal(closed, true);
    assert.deepEqual({ ...report, durationMs: 0 }, { inFlightAtStart: 1, finished: 1, cut: 0, closed: true, durationMs: 0 });
    assert.equal(shutdown(), done, 'a second call waits for the same shutdown');
  });

  it('cuts requests still running at the deadline', async () => {
    const { app, url } = await fakeApp();
    const shutdown = gracefulShutdown(app, { delayMs: 0, timeoutMs: 200 });
    const stuck = request(`${url}/slow?ms=5000`);
    await sleep(50);
    const report = await shutdown();
    assert.equal(report.cut, 1);
    assert.equal(report.closed, true);
    assert.ok('error' in (await stuck), 'the stuck request lost its connection');
  });

  it('does not wait forever for an application that does not close; afterClose still runs', async () => {
    let afterClose = false;
    const { app } = await fakeApp(() => new Promise<void>(() => undefined));
    const started = Date.now();
    const report = await gracefulShutdown(app, { delayMs: 0, timeoutMs: 200, afterClose: async () => void (afterClose = true) })();
    assert.equal(report.closed, false);
    assert.equal(afterClose, true);
    assert.ok(Date.now() - started < 2_000);
  });
});
