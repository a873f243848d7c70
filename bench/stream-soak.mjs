#!/usr/bin/env node
// `npm run bench:streams`: a soak of stream mode across two replicas, one of them killed mid-run.
//
//   node bench/stream-soak.mjs                      # both backends, one after the other (~1.5 min)
//   node bench/stream-soak.mjs --backend redis      # or postgres
//   node bench/stream-soak.mjs --seconds 60 --sessions 300
//
// Per backend: a fresh database, two replicas of the real application (the compiled src/main.ts,
// as scripts/bench.mjs compiles it into .bench-dist/) in stream mode sharing PostgreSQL (and Redis
// for the redis backend), a round-robin HTTP proxy in front of them that sends each HTTP request to
// the next replica (bench/stream-soak-proxy.mjs), and N sessions of the official 1.x SDK client
// (protocol 2025-11-25) calling tools in a loop through the proxy: mostly a read, sometimes a write
// that creates a draft invoice whose notes carry a unique marker (also its idempotency_key). At half
// time replica A gets SIGKILL. A failed call is retried (same arguments, so the same key); a
// session the server no longer knows (404) starts over with a new initialize. At the end the
// invoices are counted per marker: lost = acknowledged without a row, duplicated = more than one
// row. Exit 1 when a write was lost or duplicated, 2 when the soak could not run.
// See bench/README.md, "Stream-mode soak".
import { fork, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import pg from 'pg';
import { createScratchDatabase, withClient } from '../scripts/bench-database.mjs';
import { copyAppAssets } from './copy-app-assets.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const started = performance.now();

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------
const { values: args } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    seconds: { type: 'string', default: '20' },
    sessions: { type: 'string', default: '200' },
    'sessions-per-token': { type: 'string', default: '8' },
    'write-ratio': { type: 'string', default: '0.1' },
    'kill-at': { type: 'string', default: '0.5' },
    'no-kill': { type: 'boolean', default: false },
    attempts: { type: 'string', default: '5' },
    'call-timeout-ms': { type: 'string', default: '10000' },
    'think-ms': { type: 'string', default: '0' },
    // Diagnostic: writes without their idempotency key, to see what a retry does without one.
    'no-idempotency-key': { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: process.env.BENCH_SKIP_BUILD === '1' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(
    readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .slice(1, 20)
      .map((line) => line.replace(/^\/\/ ?/, ''))
      .join('\n'),
  );
  process.exit(0);
}
function number(name, { min = 0, integer = false } = {}) {
  const value = Number(args[name]);
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name} must be ${integer ? 'an integer' : 'a number'} ≥ ${min}, got "${args[name]}"`);
  }
  return value;
}
const config = {
  backends: args.backend === 'both' ? ['redis', 'postgres'] : [args.backend],
  seconds: number('seconds', { min: 1 }),
  sessions: number('sessions', { min: 1, integer: true }),
  // maxStreamsPerCaller is 8 per process (a caller = user + token): 8 sessions per token keep every
  // session's GET stream under it, even when all of them are on the one replica left.
  sessionsPerToken: number('sessions-per-token', { min: 1, integer: true }),
  writeRatio: number('write-ratio'),
  killAt: args['no-kill'] ? null : number('kill-at'),
  attempts: number('attempts', { min: 1, integer: true }),
  callTimeoutMs: number('call-timeout-ms', { min: 100 }),
  thinkMs: number('think-ms'),
  skipBuild: args['skip-build'],
  idempotencyKeys: !args['no-idempotency-key'],
  databaseServer: process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.BENCH_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379',
};
for (const backend of config.backends) {
  if (!['redis', 'postgres'].includes(backend)) throw new Error(`--backend must be redis, postgres or both, got "${backend}"`);
}
if (config.writeRatio > 1) throw new Error('--write-ratio must be between 0 and 1');
if (config.killAt !== null && config.killAt >= 1) throw new Error('--kill-at must be a fraction of the run below 1');

const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '');
const runDir = join(root, 'bench', 'results', `${stamp}-streams`);
mkdirSync(runDir, { recursive: true });
const outDir = join(root, '.bench-dist');
const MAIN = join(outDir, 'apps', 'billing', 'src', 'main.js');
const say = (line) => console.log(`[soak ${((performance.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}`);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// ---------------------------------------------------------------------------------------------
// Clean-up: every process started here (by its own handle), every database created, Redis keys
// ---------------------------------------------------------------------------------------------
const children = new Set();
const cleanups = [];
async function cleanUp() {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  while (cleanups.length)
    await cleanups
      .pop()()
      .catch((error) => console.error(`[soak] clean-up: ${error.message}`));
}
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
let exiting = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (exiting) return;
    exiting = true;
    console.error(`\n[soak] ${signal}: stopping`);
    await cleanUp();
    process.exit(130);
  });
}

// ---------------------------------------------------------------------------------------------
// Build: as scripts/bench.mjs does (the layer's dist/, then bench/tsconfig.json into .bench-dist/)
// ---------------------------------------------------------------------------------------------
function build() {
  if (config.skipBuild) {
    if (!existsSync(MAIN)) throw new Error(`--skip-build: ${relative(root, MAIN)} does not exist (run once without it)`);
    return say('build skipped');
  }
  const t = performance.now();
  const tsc = (project) =>
    spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { encoding: 'utf8' });
  // The packages the app runs on, each after those it depends on, then the app with the bench.
  const builds = ['nest-mcp', 'nest-mcp-auth', 'nest-mcp-prisma', 'nest-mcp-redis', 'nest-mcp-admin'].map((pkg) => [
    `packages/${pkg}`,
    join('packages', pkg, 'tsconfig.build.json'),
    join(root, 'packages', pkg, 'dist', 'index.js'),
  ]);
  builds.push(['apps/billing/src + bench', 'bench/tsconfig.json', MAIN]);
  for (const [name, project, emitted] of builds) {
    const result = tsc(project);
    if (result.status === 0) continue;
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
    const files = [...new Set([...output.matchAll(/^(\S+?\.ts)\(\d+,\d+\): error/gm)].map((m) => m[1]))];
    // Other engineers may be mid-edit: tsc still emitted JavaScript; say so and go on.
    if (!files.length || !existsSync(emitted)) {
      console.error(output);
      throw new Error(`tsc failed on ${name}`);
    }
    console.warn(`[soak] warning: tsc reported type errors in ${files.join(', ')}; using the emitted JavaScript`);
  }
  copyAppAssets(root, outDir);
  say(`compiled the packages and apps/billing/src into ${relative(root, outDir)}/ in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

// ---------------------------------------------------------------------------------------------
// Database: a fresh mcp_soak_<pid>_<backend>, migrated with the app's own runner
// ---------------------------------------------------------------------------------------------
async function createDatabase(backend) {
  const { name, url, drop } = await createScratchDatabase(config.databaseServer, 'mcp_soak', `_${backend}`);
  cleanups.push(async () => {
    await drop();
    say(`dropped database ${name}`);
  });
  const { deployMigrations } = await import(pathToFileURL(join(root, 'apps', 'billing', 'scripts', 'migrate-deploy.mjs')).href);
  await deployMigrations(url, { root: join(root, 'apps', 'billing') });
  return { name, url };
}

/** Deletes the Redis keys of this run (sessions live an hour otherwise). */
async function dropRedisKeys(prefixes) {
  const { createClient } = await import('@redis/client');
  const redis = createClient({ url: config.redisUrl });
  redis.on('error', () => undefined);
  await redis.connect();
  let deleted = 0;
  try {
    for (const prefix of prefixes) {
      for await (const keys of redis.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) {
        const batch = Array.isArray(keys) ? keys : [keys];
        if (batch.length) deleted += await redis.del(batch);
      }
    }
  } finally {
    await redis.quit().catch(() => undefined);
  }
  return deleted;
}

/** The Redis server's pid when it runs on this machine (INFO server), for its CPU time. */
async function localRedisPid() {
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(new URL(config.redisUrl).hostname)) return undefined;
  const { createClient } = await import('@redis/client');
  const redis = createClient({ url: config.redisUrl });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const pid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
    return Number.isInteger(pid) && cpuMs(pid) !== null ? pid : undefined;
  } catch {
    return undefined;
  } finally {
    await redis.quit().catch(() => undefined);
  }
}

/** Personal access tokens for the demo admin in the demo workspace, written as PersonalTokenService.mint writes them. */
async function mintTokens(url, count) {
  const { generateTokenSecret, hashToken, displayPrefix } = await import(
    pathToFileURL(join(outDir, 'apps', 'billing', 'src', 'identity', 'token-secret.js')).href
  );
  const { ALL_SCOPES } = await import(pathToFileURL(join(outDir, 'apps', 'billing', 'src', 'app.scopes.js')).href);
  return withClient(url, async (client) => {
    const { rows } = await client.query(
      `SELECT m.user_id, m.workspace_id FROM memberships m JOIN users u ON u.id = m.user_id JOIN workspaces w ON w.id = m.workspace_id
       WHERE u.email = 'admin@demo.test' AND w.slug = 'demo'`,
    );
    if (!rows[0]) throw new Error('no demo admin in the database: the replicas did not seed it');
    const tokens = [];
    for (let i = 0; i < count; i++) {
      const token = generateTokenSecret();
      await client.query(
        `INSERT INTO access_tokens (id, token_hash, prefix, user_id, workspace_id, scopes, surfaces, label, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          randomUUID(),
          hashToken(token),
          displayPrefix(token),
          rows[0].user_id,
          rows[0].workspace_id,
          [...ALL_SCOPES],
          ['mcp'],
          `npm run bench:streams ${i + 1}`,
          new Date(Date.now() + 3_600_000),
        ],
      );
      tokens.push(token);
    }
    const customer = await client.query(
      `SELECT c.id FROM customers c JOIN workspaces w ON w.id = c.workspace_id WHERE w.slug = 'demo' ORDER BY c.created_at LIMIT 1`,
    );
    if (!customer.rows[0]) throw new Error('no customer in the demo workspace');
    return { tokens, customerId: customer.rows[0].id };
  });
}

// ---------------------------------------------------------------------------------------------
// Processes: replicas (the compiled src/main.js) and the proxy
// ---------------------------------------------------------------------------------------------
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
/** CPU time (ms, user + system) of a process, from /proc; null once it is gone. */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  } catch {
    return null;
  }
}
/** Busy CPU time of the whole machine (ms, all cores), from /proc/stat. */
function machineBusyMs() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + (fields[4] ?? 0);
  return ((fields.slice(0, 8).reduce((a, b) => a + b, 0) - idle) * 1000) / CLK_TCK;
}
const selfCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

function rssMiB(pid) {
  try {
    const kb = Number(/VmRSS:\s*(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null; // gone
  }
}

async function startReplica(label, env) {
  const logPath = join(runDir, `${label}.log`);
  const log = createWriteStream(logPath);
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  const append = (chunk) => {
    log.write(chunk);
    if (output.length < 200_000) output += chunk.toString('utf8');
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  void exited.then(() => log.end());
  const tail = () => output.split('\n').slice(-25).join('\n');
  const baseUrl = await new Promise((ok, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`${label} did not start within 90 s; log: ${relative(root, logPath)}\n${tail()}`)),
      90_000,
    );
    const look = () => {
      const endpoint = /MCP endpoint: (http:\/\/[^\s"\\]+?)\/mcp/.exec(output);
      if (endpoint) {
        clearTimeout(timer);
        child.stdout.off('data', look);
        ok(endpoint[1]);
      }
    };
    child.stdout.on('data', look);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      fail(new Error(`${label} exited during start (code ${code}, signal ${signal}); log: ${relative(root, logPath)}\n${tail()}`));
    });
  });
  return {
    label,
    pid: child.pid,
    baseUrl,
    logPath,
    exited,
    kill: () => child.kill('SIGKILL'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function startProxy(upstreams) {
  const child = fork(join(root, 'bench', 'stream-soak-proxy.mjs'), [JSON.stringify(upstreams)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  const port = await new Promise((ok, fail) => {
    child.once('message', (message) => (message?.type === 'ready' ? ok(message.port) : fail(new Error('proxy: unexpected message'))));
    child.once('exit', (code) => fail(new Error(`proxy exited during start (code ${code})`)));
  });
  return {
    pid: child.pid,
    url: `http://127.0.0.1:${port}/mcp`,
    stats: () =>
      new Promise((ok) => {
        const onMessage = (message) => {
          if (message?.type !== 'stats') return;
          child.off('message', onMessage);
          ok(message.stats);
        };
        child.on('message', onMessage);
        child.send({ type: 'stats' });
      }),
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The clients: one official 1.x SDK client per session, calling tools in a loop
// ---------------------------------------------------------------------------------------------
const READ = { name: 'billing_invoices_search', arguments: { limit: 5 } };
const dueDate = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

function percentile(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A short name for what went wrong, to count errors by kind. */
function errorKind(error) {
  if (error instanceof StreamableHTTPError) return `http ${error.code}`;
  if (error instanceof McpError) return error.code === -32001 && /timed out/i.test(error.message) ? 'timeout' : `json-rpc ${error.code}`;
  const cause = error?.cause?.code ?? error?.cause?.message;
  return `${error?.name ?? 'Error'}${cause ? ` (${cause})` : `: ${String(error?.message).slice(0, 60)}`}`;
}
/** JSON-RPC errors that a retry cannot fix (the soak's own mistake): count them and move on. */
const FATAL_RPC = new Set([-32600, -32601, -32602]);

async function soak({ backend, proxyUrl, proxyPid, redisPid, monitor, tokens, customerId, replicas }) {
  const tag = `soak-${process.pid}-${backend}-${randomBytes(3).toString('hex')}`;
  const counters = { calls: 0, ok: 0, toolErrors: 0, errors: 0, gaveUp: 0, initialized: 0, reinitialized: 0, initFailures: 0 };
  const errorsByKind = {};
  const streamErrors = {};
  const latencies = { all: [], beforeKill: [], afterKill: [] };
  const writes = new Map(); // marker → { acked, invoiceId, attempts }
  const perSecond = []; // successful calls completed in each second of the run
  const noteError = (kind) => (errorsByKind[kind] = (errorsByKind[kind] ?? 0) + 1);
  let runStart = 0;
  let killedAt = null;
  let closing = false;
  /** Clients closed by the soak itself (after a 404): what their close reports is not an error. */
  const retired = new WeakSet();
  let stopAt = Infinity;

  async function openClient(token) {
    const client = new Client({ name: 'stream-soak', version: '1.0.0' });
    client.onerror = (error) => {
      if (closing || retired.has(client)) return; // the client's own close aborts its GET stream
      // The SDK reports here what happens on its own (the GET stream, its reconnections); errors
      // of a request are reported here too, then thrown to the caller, who counts them.
      const message = String(error?.message ?? error);
      const kind = /^(SSE stream disconnected|Failed to reconnect|Failed to open SSE stream|Maximum reconnection attempts)/.exec(message);
      if (kind) {
        const key = kind[1] === 'Failed to open SSE stream' ? `${kind[1]} (http ${error.code})` : kind[1];
        streamErrors[key] = (streamErrors[key] ?? 0) + 1;
      }
    };
    const transport = new StreamableHTTPClientTransport(new URL(proxyUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    try {
      await client.connect(transport, { timeout: config.callTimeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return client;
  }

  async function ensureClient(session) {
    if (session.client) return true;
    try {
      session.client = await openClient(session.token);
      if (session.opened++) counters.reinitialized++;
      else counters.initialized++;
      return true;
    } catch (error) {
      counters.initFailures++;
      noteError(`initialize: ${errorKind(error)}`);
      return false;
    }
  }

  /** One logical call with its retries (the same arguments: a write keeps its idempotency key). */
  async function call(session, request) {
    for (let attempt = 1; attempt <= config.attempts; attempt++) {
      if (attempt > 1) await sleep(Math.min(1000, 50 * 2 ** attempt) * (0.5 + Math.random()));
      if (!(await ensureClient(session))) continue;
      counters.calls++;
      const t = performance.now();
      try {
        const result = await session.client.callTool(request, undefined, { timeout: config.callTimeoutMs });
        if (result.isError) {
          counters.toolErrors++;
          const failures = result.structuredContent?.errors ?? [];
          noteError(`tool error: ${failures[0]?.code ?? 'unknown'}`);
          if (failures.some((f) => f.retryable)) continue;
          return { ok: false, attempts: attempt };
        }
        const done = performance.now();
        const ms = done - t;
        counters.ok++;
        latencies.all.push(ms);
        (killedAt !== null && t >= killedAt ? latencies.afterKill : latencies.beforeKill).push(ms);
        const second = Math.floor((done - runStart) / 1000);
        if (second >= 0) perSecond[second] = (perSecond[second] ?? 0) + 1;
        return { ok: true, result, attempts: attempt };
      } catch (error) {
        counters.errors++;
        noteError(errorKind(error));
        if (error instanceof McpError && FATAL_RPC.has(error.code)) return { ok: false, attempts: attempt };
        // 404: the server no longer knows the session (or never will): start over with initialize.
        if (error instanceof StreamableHTTPError && error.code === 404) {
          const old = session.client;
          session.client = undefined;
          retired.add(old);
          void old.close().catch(() => undefined);
        }
      }
    }
    counters.gaveUp++;
    return { ok: false, attempts: config.attempts };
  }

  async function runSession(index) {
    const session = { token: tokens[Math.floor(index / config.sessionsPerToken) % tokens.length], client: undefined, opened: 0 };
    // Connect first (all sessions are open before the clock starts), then loop until the end.
    while (!(await ensureClient(session)) && performance.now() < stopAt) await sleep(200);
    await ready;
    let seq = 0;
    while (performance.now() < stopAt) {
      if (Math.random() < config.writeRatio) {
        const marker = `${tag}-s${index}-w${seq++}`;
        const entry = { acked: false, invoiceId: null, attempts: 0 };
        writes.set(marker, entry);
        const outcome = await call(session, {
          name: 'billing_invoice_create',
          arguments: {
            customer_id: customerId,
            currency: 'MXN',
            due_date: dueDate,
            status: 'draft',
            lines: [{ description: 'Stream soak', quantity: 1, unit_price_minor: 100 }],
            notes: marker,
            ...(config.idempotencyKeys ? { idempotency_key: marker } : {}),
          },
        });
        entry.attempts = outcome.attempts;
        if (outcome.ok) {
          entry.acked = true;
          entry.invoiceId = outcome.result.structuredContent?.data?.id ?? null;
        }
      } else {
        await call(session, READ);
      }
      if (config.thinkMs) await sleep(config.thinkMs);
    }
    done++;
    await allDone;
    await session.client?.close().catch(() => undefined);
  }

  // Every session connects, then all start together; they close once all are done (a close
  // while others still call would count as an error of the GET stream).
  let release;
  const ready = new Promise((ok) => (release = ok));
  let done = 0;
  const allDone = (async () => {
    while (done < config.sessions) await sleep(20);
    closing = true;
  })();
  const connectStart = performance.now();
  const sessions = Array.from({ length: config.sessions }, (_, i) => runSession(i));
  while (counters.initialized < config.sessions && performance.now() - connectStart < 60_000) await sleep(50);
  say(`  ${counters.initialized}/${config.sessions} sessions initialized in ${((performance.now() - connectStart) / 1000).toFixed(1)} s`);
  const rss = replicas.map((r) => ({ label: r.label, atStart: rssMiB(r.pid), beforeKill: null, atEnd: null, peak: rssMiB(r.pid) }));
  // CPU over the measured seconds: the replicas, the proxy, this process (the clients), the
  // PostgreSQL backends of this database and the Redis server (when on this machine), the machine.
  const cpuPids = [...replicas.map((r) => [r.label, r.pid]), ['proxy', proxyPid], ...(redisPid ? [['redis', redisPid]] : [])];
  const cpu = { start: {}, last: {}, end: null };
  const backends = new Map(); // pid → { first, last } CPU ms (first = 0 for a backend that began during the run)
  let watching = false;
  const sampleBackends = async (atStart) => {
    if (watching) return;
    watching = true;
    try {
      const { rows } = await monitor.query(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      for (const { pid } of rows) {
        const ms = cpuMs(pid);
        if (ms === null) continue;
        const seen = backends.get(pid);
        if (seen) seen.last = ms;
        else backends.set(pid, { first: atStart ? ms : 0, last: ms });
      }
    } catch {
      // a missed sample only makes the figure smaller
    } finally {
      watching = false;
    }
  };
  const backendsMs = () => [...backends.values()].reduce((sum, b) => sum + b.last - b.first, 0);
  const sampleCpu = (into) => {
    for (const [label, pid] of cpuPids) {
      const ms = cpuMs(pid);
      if (ms !== null) into[label] = ms;
    }
    into.clients = selfCpuMs();
    into.postgres = backendsMs();
    into.machine = machineBusyMs();
    into.at = performance.now();
  };
  await sampleBackends(true);
  sampleCpu(cpu.start);
  runStart = performance.now();
  stopAt = runStart + config.seconds * 1000;
  release();
  const sampler = setInterval(() => {
    if (!cpu.end) void sampleBackends(false);
    sampleCpu(cpu.last);
    for (const [i, r] of replicas.entries()) {
      const now = rssMiB(r.pid);
      if (now !== null) rss[i].peak = Math.max(rss[i].peak ?? 0, now);
    }
  }, 1000);
  let killTimer;
  if (config.killAt !== null) {
    killTimer = setTimeout(
      () => {
        rss.forEach((entry, i) => (entry.beforeKill = rssMiB(replicas[i].pid)));
        sampleCpu(cpu.last);
        killedAt = performance.now();
        replicas[0].kill();
        say(`  SIGKILL to ${replicas[0].label} (pid ${replicas[0].pid}) at ${((killedAt - runStart) / 1000).toFixed(1)} s`);
      },
      config.seconds * config.killAt * 1000,
    );
  }
  const endTimer = setTimeout(() => {
    rss.forEach((entry, i) => (entry.atEnd = rssMiB(replicas[i].pid)));
    sampleCpu(cpu.last);
    cpu.end = { ...cpu.last };
  }, config.seconds * 1000);
  await Promise.all(sessions);
  clearInterval(sampler);
  clearTimeout(killTimer);
  clearTimeout(endTimer);
  const drainS = (performance.now() - stopAt) / 1000;
  for (const [i, entry] of rss.entries()) entry.atEnd ??= rssMiB(replicas[i].pid);
  for (const list of Object.values(latencies)) list.sort((a, b) => a - b);
  // Average cores used over the run (a replica killed counts up to its last sample).
  const end = cpu.end ?? cpu.last;
  const seconds = (end.at - cpu.start.at) / 1000;
  const cores = Object.fromEntries(
    Object.keys(cpu.start)
      .filter((k) => k !== 'at')
      .map((k) => [k, Number((((end[k] ?? cpu.start[k]) - cpu.start[k]) / 1000 / seconds).toFixed(2))]),
  );
  const known = [...cpuPids.map(([label]) => label), 'clients', 'postgres'].reduce((sum, label) => sum + (cores[label] ?? 0), 0);
  cores.rest = Number((cores.machine - known).toFixed(2));
  return {
    cores,
    tag,
    counters,
    errorsByKind,
    streamErrors,
    latencies,
    writes,
    perSecond,
    rss,
    killedAtS: killedAt && (killedAt - runStart) / 1000,
    drainS,
  };
}

/** Rows per marker in the database: lost, duplicated, and whether an answer named the row written. */
async function checkWrites(url, tag, writes) {
  const { rows } = await withClient(url, (client) =>
    client.query(`SELECT notes, count(*)::int AS n, array_agg(id::text) AS ids FROM invoices WHERE starts_with(notes, $1) GROUP BY notes`, [
      `${tag}-`,
    ]),
  );
  const found = new Map(rows.map((r) => [r.notes, r]));
  const check = {
    attempted: writes.size,
    retried: 0,
    acknowledged: 0,
    lost: 0,
    duplicated: 0,
    duplicateRows: 0,
    unacknowledgedWritten: 0,
    wrongId: 0,
    stray: 0,
  };
  const examples = { lost: [], duplicated: [], wrongId: [] };
  for (const [marker, entry] of writes) {
    const row = found.get(marker);
    const n = row?.n ?? 0;
    if (entry.acked) check.acknowledged++;
    if (entry.attempts > 1) check.retried++;
    if (entry.acked && n === 0) {
      check.lost++;
      if (examples.lost.length < 5) examples.lost.push(marker);
    }
    if (n > 1) {
      check.duplicated++;
      check.duplicateRows += n - 1;
      if (examples.duplicated.length < 5) examples.duplicated.push(`${marker} ×${n}`);
    }
    if (!entry.acked && n > 0) check.unacknowledgedWritten++;
    if (entry.acked && n === 1 && entry.invoiceId && entry.invoiceId !== row.ids[0]) {
      check.wrongId++;
      if (examples.wrongId.length < 5) examples.wrongId.push(marker);
    }
  }
  for (const marker of found.keys()) if (!writes.has(marker)) check.stray++;
  return { ...check, examples };
}

// ---------------------------------------------------------------------------------------------
// One backend: database, replicas, proxy, soak, check
// ---------------------------------------------------------------------------------------------
async function runBackend(backend) {
  say(
    `backend ${backend}: ${config.sessions} sessions, ${config.seconds} s, ${config.killAt === null ? 'no kill' : `replica A killed at ${config.killAt * 100}%`}`,
  );
  const database = await createDatabase(backend);
  say(`  database ${database.name} created and migrated`);
  const prefix = `soak-${process.pid}-${backend}-${randomBytes(3).toString('hex')}`;
  if (backend === 'redis') cleanups.push(async () => say(`  deleted ${await dropRedisKeys([prefix])} Redis keys of ${prefix}`));
  const env = { ...process.env };
  for (const name of ['REDIS_URL', 'PORT', 'HOST', 'PUBLIC_URL', 'DATABASE_URL', 'NODE_OPTIONS']) delete env[name];
  Object.assign(env, {
    NODE_ENV: 'production',
    DEMO: 'true',
    DEMO_ADMIN_PASSWORD: 'stream soak password 1',
    HOST: '127.0.0.1',
    PORT: '0',
    NO_COLOR: '1',
    DATABASE_URL: database.url,
    DATABASE_MIGRATE: 'false',
    REPLICAS: '2',
    MCP_STREAMS: 'true',
    MCP_STATE_SECRET: randomBytes(32).toString('hex'),
    MCP_STREAMS_KEY_PREFIX: prefix,
    RATE_LIMIT_KEY_PREFIX: prefix,
    // What is measured is stream mode, not the rate limiter (which still runs on every request).
    RATE_LIMIT_TOKEN_PER_MINUTE: '1000000000',
    RATE_LIMIT_WORKSPACE_PER_MINUTE: '1000000000',
    ...(backend === 'redis' ? { REDIS_URL: config.redisUrl } : {}),
  });
  // One after the other: each boot seeds the demo workspace.
  const replicas = [];
  const stopReplicas = async () => Promise.all(replicas.map((r) => r.stop()));
  cleanups.push(stopReplicas);
  for (const label of ['A', 'B']) {
    const t = performance.now();
    replicas.push(await startReplica(`${backend}-${label}`, env));
    say(
      `  replica ${label} up (pid ${replicas.at(-1).pid}, ${replicas.at(-1).baseUrl}) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
  }
  const { tokens, customerId } = await mintTokens(database.url, Math.ceil(config.sessions / config.sessionsPerToken));
  const proxy = await startProxy(replicas.map((r) => r.baseUrl));
  cleanups.push(async () => proxy.stop());
  say(`  proxy ${proxy.url} → A, B in turn; ${tokens.length} tokens (${config.sessionsPerToken} sessions each)`);

  // For the CPU figures: this database's backends (listed through a connection of its own), and
  // the Redis server when it runs on this machine.
  const monitor = new pg.Client({ connectionString: database.url });
  await monitor.connect();
  cleanups.push(() => monitor.end());
  const redisPid = backend === 'redis' ? await localRedisPid() : undefined;
  const run = await soak({ backend, proxyUrl: proxy.url, proxyPid: proxy.pid, redisPid, monitor, tokens, customerId, replicas });
  const proxyStats = await proxy.stats();
  const check = await checkWrites(database.url, run.tag, run.writes);
  const exitA = await Promise.race([replicas[0].exited, sleep(0).then(() => null)]);
  const p = (list, q) => (list.length ? Number(percentile(list, q).toFixed(1)) : null);
  const result = {
    backend,
    sessions: config.sessions,
    seconds: config.seconds,
    killedAtS: run.killedAtS === null ? null : Number(run.killedAtS.toFixed(1)),
    replicaAExit: exitA,
    writes: check,
    calls: {
      total: run.counters.calls,
      ok: run.counters.ok,
      errors: run.counters.errors,
      toolErrors: run.counters.toolErrors,
      gaveUp: run.counters.gaveUp,
      perSecond: Number((run.counters.ok / config.seconds).toFixed(0)),
    },
    sessionsOpened: {
      initial: run.counters.initialized,
      reinitialized: run.counters.reinitialized,
      initFailures: run.counters.initFailures,
    },
    latencyMs: {
      p50: p(run.latencies.all, 50),
      p99: p(run.latencies.all, 99),
      beforeKill: { p50: p(run.latencies.beforeKill, 50), p99: p(run.latencies.beforeKill, 99) },
      afterKill: { p50: p(run.latencies.afterKill, 50), p99: p(run.latencies.afterKill, 99) },
    },
    errorsByKind: run.errorsByKind,
    streamErrors: run.streamErrors,
    rssMiB: run.rss.map((r) => ({
      ...r,
      ...Object.fromEntries(['atStart', 'beforeKill', 'atEnd', 'peak'].map((k) => [k, r[k] === null ? null : Math.round(r[k])])),
    })),
    okPerSecond: Array.from(run.perSecond, (n) => n ?? 0),
    cores: run.cores,
    drainS: Number(run.drainS.toFixed(1)),
    proxy: proxyStats,
    logs: replicas.map((r) => relative(root, r.logPath)),
  };

  proxy.stop();
  await stopReplicas();
  // Errors the replicas logged (a replica's own view of what went wrong), counted by message.
  result.replicaErrors = Object.fromEntries(
    replicas.map((r) => {
      const counts = {};
      for (const line of readFileSync(r.logPath, 'utf8').split('\n')) {
        const level = /"level":"(error|fatal|warn)"/.exec(line)?.[1];
        if (!level) continue;
        const message = /"message":"((?:[^"\\]|\\.){0,120})/.exec(line)?.[1] ?? line.slice(0, 120);
        const key = `${level}: ${message}`;
        counts[key] = (counts[key] ?? 0) + 1;
      }
      return [r.label, counts];
    }),
  );
  return result;
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------
const fmt = (v, digits = 0) => (v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(digits));
function report(results) {
  const lines = [];
  lines.push(
    `### npm run bench:streams: ${config.sessions} sessions, ${config.seconds} s, ${config.killAt === null ? 'no kill' : `replica A killed at ${config.killAt * 100}%`}, write ratio ${config.writeRatio}${config.idempotencyKeys ? '' : ', writes WITHOUT idempotency keys'}`,
  );
  lines.push('');
  lines.push(
    '| backend | writes | acked | lost | duplicated | calls | ok | errors | tool errors | gave up | re-init | ok/s | p50 ms | p99 ms | p99 after kill | RSS A MiB (start → before kill, peak) | RSS B MiB (start → before kill → end, peak) |',
  );
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|');
  for (const r of results) {
    if (r.failed) {
      lines.push(`| ${r.backend} | could not run: ${r.failed.split('\n')[0].replaceAll('|', '\\|').slice(0, 200)} |`);
      continue;
    }
    const [a, b] = r.rssMiB;
    lines.push(
      `| ${r.backend} | ${r.writes.attempted} | ${r.writes.acknowledged} | ${r.writes.lost} | ${r.writes.duplicated} | ${r.calls.total} | ${r.calls.ok} | ` +
        `${r.calls.errors} | ${r.calls.toolErrors} | ${r.calls.gaveUp} | ${r.sessionsOpened.reinitialized} | ${r.calls.perSecond} | ` +
        `${fmt(r.latencyMs.p50, 1)} | ${fmt(r.latencyMs.p99, 1)} | ${fmt(r.latencyMs.afterKill.p99, 1)} | ` +
        `${fmt(a.atStart)} → ${fmt(a.beforeKill)}, ${fmt(a.peak)} | ${fmt(b.atStart)} → ${fmt(b.beforeKill)} → ${fmt(b.atEnd)}, ${fmt(b.peak)} |`,
    );
  }
  for (const r of results.filter((x) => !x.failed)) {
    lines.push('');
    lines.push(`**${r.backend}**`);
    const entries = (o) =>
      Object.entries(o)
        .sort((x, y) => y[1] - x[1])
        .map(([k, n]) => `${k} ×${n}`)
        .join(', ') || 'none';
    lines.push(`- call errors by kind: ${entries(r.errorsByKind)}`);
    lines.push(`- SDK stream errors (GET stream, reconnections): ${entries(r.streamErrors)}`);
    lines.push(
      `- writes: ${r.writes.retried} needed more than one attempt (the same idempotency key each time), ` +
        `${r.writes.unacknowledgedWritten} written but never acknowledged (the client gave up; not a loss), ` +
        `${r.writes.wrongId} acknowledged with another invoice's id, ${r.writes.stray} rows of unknown markers` +
        `${r.writes.examples.lost.length ? `; lost e.g. ${r.writes.examples.lost.join(', ')}` : ''}` +
        `${r.writes.examples.duplicated.length ? `; duplicated e.g. ${r.writes.examples.duplicated.join(', ')}` : ''}`,
    );
    lines.push(
      `- ok calls per second: ${r.okPerSecond.join(' ')}${r.killedAtS === null ? '' : ` (kill at ${r.killedAtS} s)`}; the last calls drained ${r.drainS} s after the end`,
    );
    const c = r.cores;
    lines.push(
      `- CPU over the run (cores, of ${os.availableParallelism()}): replica A ${c[`${r.backend}-A`]}, replica B ${c[`${r.backend}-B`]}, ` +
        `proxy ${c.proxy}, clients ${c.clients}, PostgreSQL backends ${c.postgres}${c.redis === undefined ? '' : `, Redis ${c.redis}`}, ` +
        `everything else ${c.rest} (other work on the machine); machine ${c.machine}; ` +
        `replicas' CPU per successful call ${fmt((((c[`${r.backend}-A`] ?? 0) + (c[`${r.backend}-B`] ?? 0)) * r.seconds * 1e6) / r.calls.ok)} µs` +
        (c.rest > 0.3 ? ' — a busy machine: latency and throughput are not comparable across runs' : ''),
    );
    lines.push(
      `- replica A exit: ${r.replicaAExit ? `signal ${r.replicaAExit.signal ?? '–'}, code ${r.replicaAExit.code ?? '–'}` : 'still running'}; ` +
        `proxy: ${r.proxy.requests} requests, ${r.proxy.retriedElsewhere} sent to B after A refused, ` +
        r.proxy.upstreams
          .map(
            (u, i) =>
              `${'AB'[i]} ${u.forwarded} answered (${Object.entries(u.byMethod)
                .map(([m, n]) => `${m} ${n}`)
                .join(', ')}) / ${u.failedBeforeAnswer} failed before answering / ${u.cutMidAnswer} cut mid-answer`,
          )
          .join(', '),
    );
    for (const [label, counts] of Object.entries(r.replicaErrors)) {
      const top = Object.entries(counts)
        .sort((x, y) => y[1] - x[1])
        .slice(0, 5);
      if (top.length) lines.push(`- ${label} logged: ${top.map(([k, n]) => `${k} ×${n}`).join('; ')}`);
    }
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Run
// ---------------------------------------------------------------------------------------------
let exitCode = 0;
const results = [];
try {
  build();
  for (const backend of config.backends) {
    try {
      results.push(await runBackend(backend));
    } catch (error) {
      console.error(`[soak] ${backend}: ${error.stack ?? error}`);
      results.push({ backend, failed: String(error.message ?? error) });
    }
    await cleanUp();
  }
  const markdown = report(results);
  console.log(`\n${markdown}\n`);
  writeFileSync(join(runDir, 'results.md'), `${markdown}\n`);
  writeFileSync(join(runDir, 'results.json'), JSON.stringify({ config, results }, null, 2));
  console.log(
    JSON.stringify({
      streamSoak: results.map((r) =>
        r.failed
          ? { backend: r.backend, failed: r.failed }
          : {
              backend: r.backend,
              writesAttempted: r.writes.attempted,
              acknowledged: r.writes.acknowledged,
              lost: r.writes.lost,
              duplicated: r.writes.duplicated,
              calls: r.calls.total,
              ok: r.calls.ok,
              errors: r.calls.errors,
              toolErrors: r.calls.toolErrors,
              gaveUp: r.calls.gaveUp,
              retriedWrites: r.writes.retried,
              reinitialized: r.sessionsOpened.reinitialized,
              p50Ms: r.latencyMs.p50,
              p99Ms: r.latencyMs.p99,
              rssMiB: Object.fromEntries(
                r.rssMiB.map((x, i) => ['AB'[i], { start: x.atStart, beforeKill: x.beforeKill, end: x.atEnd, peak: x.peak }]),
              ),
              cores: r.cores,
            },
      ),
    }),
  );
  say(`done; raw figures and replica logs in ${relative(root, runDir)}/`);
  if (results.some((r) => r.failed)) exitCode = 2;
  else if (results.some((r) => r.writes.lost > 0 || r.writes.duplicated > 0)) exitCode = 1;
} catch (error) {
  console.error(`[soak] failed: ${error.stack ?? error}`);
  exitCode = 2;
} finally {
  await cleanUp();
}
process.exit(exitCode);
