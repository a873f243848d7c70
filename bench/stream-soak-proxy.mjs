#!/usr/bin/env node
// The round-robin HTTP proxy of `npm run bench:streams` (bench/stream-soak.mjs), in a process of
// its own so that it never shares an event loop with the 200 clients it serves. Forked with an IPC
// channel: argv[2] is a JSON array of upstream base URLs; it answers `{ type: 'ready', port }`,
// then `{ type: 'stats', stats }` to every `{ type: 'stats' }`.
//
// Each incoming HTTP request is forwarded on its own to the next upstream in turn (A, B, A, …),
// so one session's requests land on every replica. Answers are streamed through as they arrive
// (SSE included: headers are flushed at once, chunks piped unbuffered). An upstream that refuses
// the connection is skipped for a while (what a load balancer's health check does) and the
// request goes to the next one; the body is buffered first so it can be sent again. A request
// that an upstream dropped after it was sent is never sent again (it may have run: the client
// decides, with its idempotency key): the client gets a 502, or, once the answer had begun, a
// connection cut mid-answer.
import http from 'node:http';

const upstreams = JSON.parse(process.argv[2] ?? '[]').map((base, index) => {
  const url = new URL(base);
  return {
    index,
    host: url.hostname,
    port: Number(url.port),
    downUntil: 0,
    agent: new http.Agent({ keepAlive: true, maxSockets: Infinity }),
    stats: { forwarded: 0, refused: 0, failedBeforeAnswer: 0, cutMidAnswer: 0, byStatus: {}, byMethod: {} },
  };
});
if (upstreams.length === 0) throw new Error('usage: stream-soak-proxy.mjs \'["http://127.0.0.1:A","http://127.0.0.1:B"]\'');

/** How long an upstream that refused a connection is skipped before it is tried again. */
const DOWN_MS = 2_000;
/** Errors that mean the request never reached the upstream, so it is safe to send it elsewhere. */
const NOT_SENT = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);
const stats = { requests: 0, retriedElsewhere: 0, noUpstream: 0, clientAborted: 0 };
let turn = 0;

function pick(exclude) {
  const now = Date.now();
  for (let i = 0; i < upstreams.length; i++) {
    const upstream = upstreams[(turn + i) % upstreams.length];
    if (!exclude.has(upstream) && upstream.downUntil <= now) {
      turn = (upstream.index + 1) % upstreams.length;
      return upstream;
    }
  }
  // Every upstream is marked down: try one not tried yet for this request anyway.
  return upstreams.find((upstream) => !exclude.has(upstream));
}

function forwardHeaders(incoming, upstream) {
  const headers = {};
  for (const [name, value] of Object.entries(incoming)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
  headers.host = `${upstream.host}:${upstream.port}`;
  return headers;
}

/**
 * One incoming request: `state` is shared by its attempts (at most one per upstream) and by the
 * handler that notices the client leaving.
 */
function send(req, res, body, state) {
  const upstream = pick(state.tried);
  if (!upstream) {
    stats.noUpstream++;
    res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('no upstream accepted the connection');
    return;
  }
  state.tried.add(upstream);
  const headers = forwardHeaders(req.headers, upstream);
  if (body.length || req.method === 'POST') headers['content-length'] = String(body.length);
  const outgoing = http.request({
    host: upstream.host,
    port: upstream.port,
    method: req.method,
    path: req.url,
    headers,
    agent: upstream.agent,
  });
  state.outgoing = outgoing;
  let answered = false;
  let sent = false;
  outgoing.on('socket', (socket) => {
    // `connect` does not fire on a reused keep-alive socket: it was connected already.
    if (!socket.connecting) sent = true;
    else socket.once('connect', () => (sent = true));
  });
  outgoing.on('response', (answer) => {
    answered = true;
    upstream.stats.forwarded++;
    upstream.stats.byStatus[answer.statusCode] = (upstream.stats.byStatus[answer.statusCode] ?? 0) + 1;
    upstream.stats.byMethod[req.method] = (upstream.stats.byMethod[req.method] ?? 0) + 1;
    const out = {};
    for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
    res.writeHead(answer.statusCode ?? 502, out);
    res.flushHeaders();
    answer.pipe(res);
    answer.on('error', () => undefined); // seen by 'close' below
    // The upstream died mid-answer (e.g. an SSE stream of the replica killed): cut the client's
    // connection too, as a load balancer does, so that the client sees the stream end abnormally.
    answer.on('close', () => {
      if (!answer.complete && !state.clientGone) {
        upstream.stats.cutMidAnswer++;
        state.cut = true;
        res.destroy();
      }
    });
  });
  outgoing.on('error', (error) => {
    if (answered || state.clientGone) return; // handled by the answer's own events, or nobody to answer
    if (!sent && NOT_SENT.has(error.code)) {
      upstream.stats.refused++;
      upstream.downUntil = Date.now() + DOWN_MS;
      if (state.tried.size < upstreams.length) {
        stats.retriedElsewhere++;
        send(req, res, body, state);
        return;
      }
    }
    upstream.stats.failedBeforeAnswer++;
    res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`upstream ${upstream.index} failed: ${error.code ?? error.message}`);
  });
  outgoing.end(body);
}

const server = http.createServer((req, res) => {
  stats.requests++;
  const state = { tried: new Set(), outgoing: undefined, clientGone: false, cut: false };
  // The client went away first (it closed an SSE stream, or gave up): drop the upstream request too.
  res.on('close', () => {
    if (res.writableFinished || state.cut) return;
    state.clientGone = true;
    stats.clientAborted++;
    state.outgoing?.destroy();
  });
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => send(req, res, Buffer.concat(chunks), state));
  req.on('error', () => res.destroy());
});
server.requestTimeout = 0;
server.headersTimeout = 60_000;
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.send?.({ type: 'ready', port: server.address().port }));

process.on('message', (message) => {
  if (message?.type === 'stats') {
    process.send?.({
      type: 'stats',
      stats: { ...stats, upstreams: upstreams.map((u) => ({ upstream: `${u.host}:${u.port}`, ...u.stats })) },
    });
  }
});
// The runner's IPC channel closing means it is gone: do not outlive it.
process.on('disconnect', () => process.exit(0));
