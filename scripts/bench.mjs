#!/usr/bin/env node
// `npm run bench` / `npm run bench:smoke`: throughput and latency of the MCP endpoint against the
// REST routes it shares handlers with, against its peers, at scale, under writes, over a soak,
// against the floors of its read path (bare node:http + pg: the SQL of then in three statements, and
// the application's guarantees with its token cache and one prepared statement), and of MCP tasks
// on two replicas against the same work in the request (case 8).
//
//   node scripts/bench.mjs            # the full run (~5-6 min on 2 cores)
//   node scripts/bench.mjs --smoke    # the same pipeline with tiny durations (CI: < ~60 s)
//
// Every measurement: one server process at a time (spawned here, loopback, random port), a
// separate load-generator process (autocannon, bench/load-generator.mjs), a warm-up run, then the
// measured run at the same concurrency for every case. Prints a Markdown table, the target ratios
// with PASS/MISS, and writes the raw figures to bench/results/<stamp>/results.json (git-ignored).
// See bench/README.md for the environment variables.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuPinning } from '../bench/cpu-pinning.mjs';
import { createScratchDatabase, withClient } from './bench-database.mjs';
import { ERA_2025, ERA_2026, mcpBody, mcpHeaders, TASKS_CAPABILITIES, VERIFY } from '../bench/requests.mjs';
import { copyAppAssets } from '../bench/copy-app-assets.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const started = performance.now();
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';

// ---------------------------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------------------------
function positive(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}
/** `min-max` (or one number) of milliseconds, min ≥ 0. */
function msRange(name, fallback) {
  const raw = process.env[name] || fallback;
  const [least, most = least] = raw.split('-').map(Number);
  if (!Number.isFinite(least) || !Number.isFinite(most) || least < 0 || most < least)
    throw new Error(`${name} must be "<min>-<max>" milliseconds, e.g. "200-300", got "${raw}"`);
  return [least, most];
}
function positiveOrZero(name, fallback) {
  return process.env[name] === '0' ? 0 : positive(name, fallback);
}
const config = {
  mode: smoke ? 'smoke' : 'full',
  durationS: positive('BENCH_DURATION', smoke ? 1 : 10),
  warmupS: positive('BENCH_WARMUP', smoke ? 0.5 : 3),
  connections: Math.round(positive('BENCH_CONNECTIONS', smoke ? 4 : 32)),
  soakRequests: Math.round(positive('BENCH_SOAK_REQUESTS', smoke ? 2_000 : 100_000)),
  // Case 3: the target compares the first and the last count; a middle one equal to the page size
  // (100) separates growth with the count from growth of the page that gets serialized.
  toolCounts: (process.env.BENCH_TOOL_COUNTS ?? (smoke ? '10,500' : '10,100,500')).split(',').map((n) => Math.round(Number(n))),
  // A fresh server process for every row (full run); the smoke run keeps one per case when the
  // next row runs the same server, to stay within CI's minute. BENCH_FRESH_SERVERS=1|0 overrides.
  freshServers: process.env.BENCH_FRESH_SERVERS ? process.env.BENCH_FRESH_SERVERS === '1' : !smoke,
  // Server processes per row for the rows of cases 1, 4 and 6 (their ratios make targets with little
  // margin): the row reports the process of median throughput. Needs fresh servers.
  processes: Math.round(positive('BENCH_PROCESSES', smoke ? 1 : 3)),
  // `tasks` is another name of case 8.
  cases: new Set((process.env.BENCH_CASES ?? '1,2,3,4,5,6,7,8').split(',').map((c) => (c.trim() === 'tasks' ? '8' : c.trim()))),
  peerEra: process.env.BENCH_PEER_ERA === '2025' || process.env.BENCH_PEER_ERA === ERA_2025 ? ERA_2025 : ERA_2026,
  cpuProfile: process.env.BENCH_CPU_PROF === '1',
  // Extra Node.js flags for every server (e.g. `--trace-gc`), which NODE_OPTIONS may refuse.
  serverNodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
  skipBuild: process.env.BENCH_SKIP_BUILD === '1',
  // The server on CPU 0 alone, the load generator and a local PostgreSQL on the others (bench/cpu-pinning.mjs).
  pin: process.env.BENCH_PIN === '1',
  // Case 8 (tasks): how often the load polls tasks/get for one task (ms), and the application's
  // own settings for both server processes (unset: the application's defaults, TASK_WORKERS=2, TASK_POLL_MS=1000).
  taskClientPollMs: Math.round(positive('BENCH_TASK_CLIENT_POLL_MS', 100)),
  // Case 8's work: bench_customer_summary (default) or bench_statement_export (bench/servers/billing-tasks.ts).
  taskTool: process.env.BENCH_TASK_TOOL || 'bench_customer_summary',
  taskWorkers: process.env.BENCH_TASK_WORKERS || undefined,
  taskPollMs: process.env.BENCH_TASK_POLL_MS || undefined,
  // Case 8, the queue's figures (bench_sleep tasks, bench/README.md): idle pickups (one at a time),
  // tasks of each burst, the short task's run, and the fairness run's flood (workspace A) and
  // workspace B's calls. 0 pickups skips the queue's figures altogether.
  taskPickups: Math.round(positiveOrZero('BENCH_TASK_PICKUPS', smoke ? 12 : 80)),
  // The pause after each idle pickup, uniform in [min, max] ms. Against a worker that polls every
  // TASK_POLL_MS, a range narrower than that poll samples one phase of it (see bench/README.md).
  taskPickupGapMs: msRange('BENCH_TASK_PICKUP_GAP_MS', '200-300'),
  taskBurst: Math.round(positive('BENCH_TASK_BURST', smoke ? 12 : 50)),
  taskShortMs: Math.round(positive('BENCH_TASK_SHORT_MS', 100)),
  taskFlood: Math.round(positive('BENCH_TASK_FLOOD', smoke ? 16 : 50)),
  taskFloodMs: Math.round(positive('BENCH_TASK_FLOOD_MS', 400)),
  taskFairCalls: Math.round(positive('BENCH_TASK_FAIR_CALLS', smoke ? 8 : 25)),
  databaseServer: process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres',
};
if (config.toolCounts.length < 2 || config.toolCounts.some((n) => !Number.isInteger(n) || n < 1)) {
  throw new Error('BENCH_TOOL_COUNTS must be two or more positive integers, e.g. "10,100,500"');
}

const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '');
const runDir = join(root, 'bench', 'results', `${stamp}${smoke ? '-smoke' : ''}`);
const logDir = join(runDir, 'logs');
const profileDir = join(runDir, 'profiles');
const tmpDir = join(runDir, 'load');
for (const dir of [logDir, tmpDir, ...(config.cpuProfile ? [profileDir] : [])]) mkdirSync(dir, { recursive: true });
const outDir = join(root, '.bench-dist');
const say = (line) => console.log(`[bench ${((performance.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}`);
const pinning = cpuPinning({ enabled: config.pin, databaseUrl: config.databaseServer, say });

// Processes started here, ended on the way out (and on Ctrl-C) by their own pid only.
const children = new Set();
let cleanupDatabase = async () => undefined;
let exiting = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (exiting) return;
    exiting = true;
    console.error(`\n[bench] ${signal}: stopping`);
    for (const child of children) child.kill('SIGKILL');
    pinning.restore();
    await cleanupDatabase().catch(() => undefined);
    process.exit(130);
  });
}

// ---------------------------------------------------------------------------------------------
// Machine facts
// ---------------------------------------------------------------------------------------------
const cpuModel = (() => {
  try {
    return /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? os.cpus()[0]?.model;
  } catch {
    return os.cpus()[0]?.model;
  }
})();
const git = (args) => spawnSync('git', args, { encoding: 'utf8' }).stdout?.trim() ?? '';
const machine = {
  nproc: os.availableParallelism?.() ?? os.cpus().length,
  cpuModel,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
  commit: `${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain', '--', 'packages/nest-mcp/src', 'apps/billing/src']) ? ' (+ uncommitted changes in src/)' : ''}`,
};
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** Busy CPU time of the whole machine (ms, all cores), from /proc/stat. */
function machineBusyMs() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + (fields[4] ?? 0);
  // guest time is already counted in user
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return ((total - idle) * 1000) / CLK_TCK;
}
/** CPU time (ms) of a set of processes; gone ones count as 0. */
function cpuMsOf(pids) {
  return pids.reduce((sum, pid) => sum + (Number.isFinite(processStats(pid).cpuMs) ? processStats(pid).cpuMs : 0), 0);
}
/** Backends (pids) of the PostgreSQL server connected to `database`: part of the system under test. */
async function backendPids(database) {
  if (!database) return [];
  return admin(config.databaseServer, async (client) => {
    const { rows: found } = await client.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
      database,
    ]);
    return found.map((r) => r.pid);
  });
}
/** Average busy cores of the machine over `ms`. */
async function machineLoad(ms) {
  const a = machineBusyMs();
  await new Promise((done) => setTimeout(done, ms));
  return (machineBusyMs() - a) / ms;
}
/**
 * BENCH_WAIT_QUIET=<s>: before each row, wait up to that long for the machine to be idle (under
 * 0.15 busy cores over 1 s), for shared machines where other work comes and goes.
 */
async function waitQuiet() {
  const limitS = Number(process.env.BENCH_WAIT_QUIET ?? 0);
  if (!limitS) return undefined;
  const t = performance.now();
  let load = await machineLoad(1000);
  while (load > 0.15 && performance.now() - t < limitS * 1000) load = await machineLoad(1000);
  if (performance.now() - t > 1500)
    say(`  waited ${((performance.now() - t) / 1000).toFixed(0)} s for a quiet machine (now ${load.toFixed(2)} busy cores)`);
  return load;
}

/** RSS (MiB) and CPU time (ms, user + system) of a process, from /proc. */
function processStats(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s*(\d+)/.exec(status)?.[1] ?? NaN);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
    return { rssMiB: rssKb / 1024, cpuMs };
  } catch {
    return { rssMiB: NaN, cpuMs: NaN };
  }
}

// ---------------------------------------------------------------------------------------------
// Build: the packages' builds (packages/*/dist, what an installing app runs; in dependency order), then
// tsc with bench/tsconfig.json (apps/billing/src/** + bench/**) into .bench-dist/
// ---------------------------------------------------------------------------------------------
/** The workspace packages the billing app runs on, each after those it depends on. */
const PACKAGES = ['nest-mcp', 'nest-mcp-auth', 'nest-mcp-prisma', 'nest-mcp-redis', 'nest-mcp-admin'];

function build() {
  if (config.skipBuild) return say('build skipped (BENCH_SKIP_BUILD=1)');
  const t = performance.now();
  for (const pkg of PACKAGES) {
    const layer = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join('packages', pkg, 'tsconfig.build.json')],
      { encoding: 'utf8' },
    );
    if (layer.status !== 0) {
      console.error(`${layer.stdout}${layer.stderr}`);
      throw new Error(`tsc failed on the layer (packages/${pkg})`);
    }
  }
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'bench/tsconfig.json'], {
    encoding: 'utf8',
  });
  const output = `${tsc.stdout ?? ''}${tsc.stderr ?? ''}`;
  if (tsc.status !== 0) {
    const files = [...output.matchAll(/^(\S+?\.ts)\(\d+,\d+\): error/gm)].map((m) => m[1].replaceAll('\\', '/'));
    const ours = files.filter((file) => /(^|\/)bench\//.test(file));
    const entries = [
      'billing-app',
      'billing-tasks',
      'echo-ours',
      'echo-sdk',
      'echo-mcp-nest',
      'tools-scale',
      'floor',
      'write-floor',
      'stream-ours',
    ].map((s) => join(outDir, 'bench', 'servers', `${s}.js`));
    if (ours.length || !files.length || entries.some((file) => !existsSync(file))) {
      console.error(output);
      throw new Error('tsc failed on the bench sources');
    }
    // Other engineers may be mid-edit in apps/billing/src/: tsc still emitted JavaScript; say so and go on.
    console.warn(
      `[bench] warning: tsc reported ${files.length} type error(s) outside bench/ (${[...new Set(files)].join(', ')}); using the emitted JavaScript`,
    );
  }
  copyAppAssets(root, outDir);
  say(
    `compiled packages/nest-mcp, apps/billing/src/** + bench/** into ${relative(root, outDir)}/ in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
}

// ---------------------------------------------------------------------------------------------
// Database: a fresh mcp_bench_<pid> on the PostgreSQL server, migrated with the Prisma CLI
// ---------------------------------------------------------------------------------------------
const admin = withClient;
async function createDatabase() {
  const t = performance.now();
  const { name, url, drop } = await createScratchDatabase(config.databaseServer, 'mcp_bench');
  cleanupDatabase = async () => {
    cleanupDatabase = async () => undefined;
    await drop();
    say(`dropped database ${name}`);
  };
  const migrate = spawnSync(process.execPath, [join('apps', 'billing', 'scripts', 'prisma.mjs'), 'migrate', 'deploy'], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: url },
  });
  if (migrate.status !== 0) {
    console.error(`${migrate.stdout}${migrate.stderr}`);
    throw new Error('prisma migrate deploy failed on the bench database');
  }
  say(`database ${name} created and migrated in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return { name, url };
}

// ---------------------------------------------------------------------------------------------
// Servers and load
// ---------------------------------------------------------------------------------------------
/** Starts `bench/servers/<entry>.ts` (compiled) and resolves once it printed BENCH_READY. */
async function startServer(entry, label, env = {}, nodeOptions = []) {
  const log = createWriteStream(join(logDir, `${label}.log`));
  const args = [
    ...nodeOptions,
    ...config.serverNodeArgs,
    ...(config.cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${label}.cpuprofile`] : []),
    join(outDir, 'bench', 'servers', `${entry}.js`),
  ];
  const [command, ...argv] = pinning.server([process.execPath, ...args]);
  const child = spawn(command, argv, { env: { ...process.env, ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  child.stderr.pipe(log, { end: false });
  const t = performance.now();
  const lineListeners = new Set();
  let pending = '';
  child.stdout.on('data', (chunk) => {
    log.write(chunk);
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) for (const listener of lineListeners) listener(line);
  });
  const ready = await new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label}: not ready after 120 s`)), 120_000);
    const onLine = (line) => {
      const match = /^BENCH_READY (.*)$/.exec(line);
      if (match) {
        clearTimeout(timer);
        lineListeners.delete(onLine);
        resolveReady(JSON.parse(match[1]));
      }
    };
    lineListeners.add(onLine);
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(
        new Error(
          `${label}: exited before it was ready (code ${code}, signal ${signal}); log: ${relative(root, join(logDir, `${label}.log`))}\n${tail(label)}`,
        ),
      );
    });
  });
  const bootS = (performance.now() - t) / 1000;
  return {
    ...ready,
    pid: child.pid,
    bootS,
    base: `http://127.0.0.1:${ready.port}`,
    /** Full GC in the server (if started with --expose-gc), then its process.memoryUsage(). */
    memory() {
      return new Promise((resolveMemory, reject) => {
        const timer = setTimeout(() => reject(new Error(`${label}: no memory report`)), 10_000);
        const onLine = (line) => {
          const match = /^BENCH_MEMORY (.*)$/.exec(line);
          if (!match) return;
          clearTimeout(timer);
          lineListeners.delete(onLine);
          resolveMemory(JSON.parse(match[1]));
        };
        lineListeners.add(onLine);
        child.kill('SIGUSR2');
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(killer);
      }
      children.delete(child);
      log.end();
    },
  };
}
function tail(label) {
  try {
    return readFileSync(join(logDir, `${label}.log`), 'utf8')
      .split('\n')
      .slice(-15)
      .join('\n');
  } catch {
    return '';
  }
}

/** One autocannon run in its own process (bench/load-generator.mjs). */
async function load(label, spec, { durationS, amount }) {
  const configPath = join(tmpDir, `${label}.json`);
  const resultPath = join(tmpDir, `${label}.result.json`);
  writeFileSync(
    configPath,
    JSON.stringify({ ...spec, connections: config.connections, ...(amount ? { amount } : { duration: durationS }) }),
  );
  const [command, ...argv] = pinning.others([process.execPath, join(root, 'bench', 'load-generator.mjs'), configPath, resultPath]);
  const child = spawn(command, argv, {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  const code = await new Promise((done) => child.once('exit', (c) => done(c)));
  children.delete(child);
  if (code !== 0) throw new Error(`${label}: load generator exited with code ${code}`);
  return JSON.parse(readFileSync(resultPath, 'utf8'));
}

/** One request like the case's, checked as the load generator checks them, before any load. */
async function preflight(server, spec) {
  const url = new URL(spec.url.replace('{base}', server.base));
  const body = spec.preflightBody ?? spec.body;
  const response = await fetch(url, { method: spec.method ?? 'GET', headers: spec.headers, body });
  const text = await response.text();
  if (response.status < 200 || response.status >= 300 || (spec.verify && !VERIFY[spec.verify](text))) {
    throw new Error(`preflight answered ${response.status}: ${text.slice(0, 500)}`);
  }
  // The digest lets a floor's answer be compared with its route's, byte for byte (case 6).
  return { status: response.status, bytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') };
}

const rows = [];
const notes = [];
/** With freshServers off: the server of the last row, reused if the next row runs the same one. */
let kept;
async function releaseKept() {
  const last = kept;
  kept = undefined;
  await last?.server.stop();
}
let ownFailures = 0;

/**
 * One row: fresh server, preflight, warm-up run, measured run (RSS sampled every 250 ms), stop.
 * `peer` rows that cannot run are reported as not measurable; our own failing is an error.
 */
async function measureRow(row, options = {}) {
  await measureOnce(row, options);
  rows.push(row);
  return row;
}

/**
 * Rows whose ratios make a target with little margin (cases 1, 4 and 6): each is measured in
 * `config.processes` server processes, taken in turns (A B C, A B C, …) so that a machine whose
 * speed drifts over minutes weighs on every row alike, and reports the process of median
 * throughput (all of them are kept in `row.processes` and listed in the report). Two processes of
 * one build differ by 10–25% in CPU per request for their whole life: a ratio of two single
 * processes is a draw from that spread (case 4 read 0.67–0.90× over five such runs of one code).
 */
async function measureInTurns(list) {
  const count = config.freshServers ? config.processes : 1;
  if (count === 1) {
    for (const [row, options] of list) await measureRow(row, options);
    return list.map(([row]) => row);
  }
  const runs = list.map(() => []);
  for (let i = 1; i <= count; i++) {
    for (const [index, [row, options]] of list.entries()) runs[index].push(await measureOnce({ ...row, process: i }, options));
  }
  return list.map(([row], index) => {
    const own = runs[index];
    const failed = own.find((run) => run.failed);
    const byThroughput = [...own].sort((a, b) => (a.rps ?? 0) - (b.rps ?? 0));
    Object.assign(row, failed ?? byThroughput[(count - 1) >> 1], {
      process: undefined,
      answered: own.reduce((sum, run) => sum + (run.answered ?? 0), 0),
      processes: own.map((run) => ({ rps: run.rps, p50: run.p50, p99: run.p99, serverCpuUsPerRequest: run.serverCpuUsPerRequest })),
    });
    const each = own.map((run) => fmt(run.rps, 0)).join(', ');
    notes.push(
      `Case ${row.case}, ${row.variant}${row.era ? ` (${row.era})` : ''}: the median of ${count} server processes (req/s ${each}).`,
    );
    rows.push(row);
    return row;
  });
}

async function measureOnce(row, { entry, env, spec, peer = false, amount, before, database, nodeOptions, memoryProbe = false } = {}) {
  const label = `case${row.case}-${row.key}${row.process ? `-p${row.process}` : ''}`;
  // Names the process's log and CPU profile (logs/<label>.log, profiles/<label>.cpuprofile).
  row.label = label;
  say(`${label}: ${row.variant} (${row.era ?? 'REST'})`);
  let server;
  try {
    row.quietBefore = await waitQuiet();
    const key = JSON.stringify([entry, env ?? {}]);
    if (kept && kept.key !== key) await releaseKept();
    server = kept?.server ?? (await startServer(entry, label, env, nodeOptions));
    kept = undefined;
    row.server = server.server;
    row.bootS = Number(server.bootS.toFixed(2));
    if (before) await before(server);
    const resolved = {
      ...spec,
      url: spec.url.replace('{base}', server.base),
      headers: typeof spec.headers === 'function' ? spec.headers(server) : spec.headers,
    };
    row.preflight = await preflight(server, { ...spec, headers: resolved.headers });
    const loadSpec = {
      url: resolved.url,
      method: spec.method,
      headers: resolved.headers,
      body: spec.body,
      bodyFactory: spec.bodyFactory,
      verify: spec.verifyUnderLoad === false ? undefined : spec.verify,
    };
    row.warmup = await load(`${label}-warmup`, loadSpec, { durationS: config.warmupS });
    if (memoryProbe) row.memoryBefore = await server.memory();
    // The system under test: the server process and, for database cases, its PostgreSQL backends.
    const backends = await backendPids(database);
    const before0 = processStats(server.pid);
    const machine0 = machineBusyMs();
    const backends0 = cpuMsOf(backends);
    const self0 = process.cpuUsage();
    const wall0 = performance.now();
    const samples = [];
    const sampler = setInterval(() => samples.push(Number(processStats(server.pid).rssMiB.toFixed(1))), 250);
    const result = await load(label, loadSpec, { durationS: config.durationS, amount });
    clearInterval(sampler);
    const after = processStats(server.pid);
    const wallMs = performance.now() - wall0;
    const serverMs = after.cpuMs - before0.cpuMs;
    const backendsMs = cpuMsOf(backends) - backends0;
    const selfCpu = process.cpuUsage(self0);
    const otherMs =
      machineBusyMs() - machine0 - serverMs - backendsMs - result.loadGeneratorCpuUs / 1000 - (selfCpu.user + selfCpu.system) / 1000;
    if (memoryProbe) row.memoryAfter = await server.memory();
    row.cores = {
      server: serverMs / wallMs,
      postgres: database ? backendsMs / wallMs : null,
      loadGenerator: result.loadGeneratorCpuUs / 1000 / wallMs,
      // Everything else the machine ran meanwhile (other users' work): > ~0.1 makes the row suspect.
      other: Math.max(0, otherMs) / wallMs,
    };
    Object.assign(row, {
      rps: result.rps,
      p50: result.latencyMs.p50,
      p99: result.latencyMs.p99,
      errors: result.errors + result.non2xx + result.mismatches,
      rssMiB: after.rssMiB,
      rssBeforeMiB: before0.rssMiB,
      rssPeakMiB: Math.max(after.rssMiB, ...samples.filter(Number.isFinite)),
      rssSamplesMiB: amount ? samples.filter((_, i) => i % 4 === 0) : undefined,
      serverCpuUsPerRequest: result.completed ? ((after.cpuMs - before0.cpuMs) * 1000) / result.completed : null,
      postgresCpuUsPerRequest: database && result.completed ? (backendsMs * 1000) / result.completed : null,
      // Successful answers of the warm-up and the measured run (a write row's rows are counted against them).
      answered: row.warmup.ok2xx - row.warmup.mismatches + result.ok2xx - result.mismatches,
      result,
    });
    say(
      `  ${fmt(row.rps, 0)} req/s, p50 ${fmt(row.p50, 2)} ms, p99 ${fmt(row.p99, 2)} ms, errors ${row.errors}, ` +
        `RSS ${fmt(row.rssMiB, 0)} MiB, server CPU ${fmt(row.serverCpuUsPerRequest, 0)} µs/req, ` +
        `cores: server ${fmt(row.cores.server, 2)}${database ? `, postgres ${fmt(row.cores.postgres, 2)}` : ''}, load generator ${fmt(row.cores.loadGenerator, 2)}, other ${fmt(row.cores.other, 2)}`,
    );
  } catch (error) {
    row.failed = error.message;
    if (!peer) ownFailures++;
    say(`  ${peer ? 'NOT MEASURABLE' : 'FAILED'}: ${error.message.split('\n')[0]}`);
    if (!peer) console.error(error.message);
  } finally {
    if (server && !config.freshServers && !row.failed) kept = { key: JSON.stringify([entry, env ?? {}]), server };
    else await server?.stop();
  }
  return row;
}

// ---------------------------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------------------------
async function pickSummaryEmail(db, workspaceSlug = 'demo') {
  // The demo customer with the most invoices: the summary does real work for it.
  return admin(db.url, async (client) => {
    const { rows: found } = await client.query(
      `SELECT c.email FROM customers c JOIN invoices i ON i.customer_id = c.id JOIN workspaces w ON w.id = c.workspace_id
       WHERE c.email LIKE 'billing@%' AND w.slug = $1 GROUP BY c.email ORDER BY count(*) DESC, c.email LIMIT 1`,
      [workspaceSlug],
    );
    if (!found.length) throw new Error('the demo seed left no customer with invoices');
    return found[0].email;
  });
}

/** The bench token of a server (its BENCH_READY line), as an Authorization header. */
const bearer = (server) => ({ authorization: `Bearer ${server.token}` });

async function case1(db) {
  const env = { DATABASE_URL: db.url };
  let email;
  const summaryArgs = () => ({ name: 'billing_customer_summary', arguments: { email } });
  const beforeFirst = async () => {
    if (email) return;
    email = await pickSummaryEmail(db);
    notes.push(`Case 1 reads the summary of ${email} (the demo customer with the most invoices).`);
  };
  const mcpRow = (era) => [
    { case: 1, key: `mcp-${era.slice(0, 4)}`, variant: 'MCP tools/call billing_customer_summary', era },
    {
      entry: 'billing-app',
      database: db.name,
      env,
      before: beforeFirst,
      spec: {
        url: '{base}/mcp',
        method: 'POST',
        headers: (server) => mcpHeaders(era, 'tools/call', 'billing_customer_summary', bearer(server)),
        get body() {
          return mcpBody(era, 'tools/call', summaryArgs());
        },
        verify: 'mcp-result',
      },
    },
  ];
  await measureInTurns([
    [
      { case: 1, key: 'rest', variant: 'REST GET /v1/customers/summary', era: null },
      {
        entry: 'billing-app',
        database: db.name,
        env,
        before: beforeFirst,
        spec: {
          get url() {
            return `{base}/v1/customers/summary?email=${encodeURIComponent(email)}`;
          },
          method: 'GET',
          headers: bearer,
          verify: 'rest-summary',
        },
      },
    ],
    mcpRow(ERA_2026),
    mcpRow(ERA_2025),
  ]);
}

async function case2() {
  const era = config.peerEra;
  const spec = {
    url: '{base}/mcp',
    method: 'POST',
    headers: mcpHeaders(era, 'tools/call', 'echo'),
    body: mcpBody(era, 'tools/call', { name: 'echo', arguments: { text: 'hello, bench' } }),
    verify: 'mcp-result',
  };
  await measureRow(
    { case: 2, key: 'ours', variant: 'echo: ours (McpModule.forRoot, class-validator DTO)', era },
    { entry: 'echo-ours', spec },
  );
  await measureRow(
    { case: 2, key: 'sdk', variant: 'echo: official SDK v2 (createMcpHandler, node:http, zod)', era },
    { entry: 'echo-sdk', spec, peer: true },
  );
  await measureRow(
    { case: 2, key: 'mcp-nest', variant: 'echo: @rekog/mcp-nest (stateless HTTP, zod)', era },
    { entry: 'echo-mcp-nest', spec, peer: true },
  );
}

async function case3() {
  for (const count of config.toolCounts) {
    await measureRow(
      { case: 3, key: `tools-${count}`, variant: `tools/list, ${count} registered tools`, era: ERA_2026 },
      {
        entry: 'tools-scale',
        env: { TOOL_COUNT: String(count) },
        // Answers are checked by the preflight and by status code only: checking every 80 KiB body
        // would cost the load generator, which shares the 2 cores, more than the server.
        spec: {
          url: '{base}/mcp',
          method: 'POST',
          headers: mcpHeaders(ERA_2026, 'tools/list'),
          body: mcpBody(ERA_2026, 'tools/list'),
          verify: 'tools-list',
          verifyUnderLoad: false,
        },
      },
    );
  }
}

async function case4(db) {
  const env = { DATABASE_URL: db.url };
  // The keyed REST create is context (no target of its own) but runs in turns with the two it
  // explains; its customers' emails are its own (`keyed-…`), outside the write check's count.
  const app = { entry: 'billing-app', database: db.name, env };
  const [rest, mcp] = await measureInTurns([
    [
      { case: 4, key: 'rest', variant: 'REST POST /v1/customers', era: null },
      { ...app, spec: restCreateSpec('rest') },
    ],
    [
      { case: 4, key: 'mcp-2026', variant: 'MCP tools/call billing_customer_create', era: ERA_2026 },
      { ...app, spec: mcpCreateSpec('mcp') },
    ],
    [
      { case: 4, key: 'rest-keyed', variant: 'REST POST /v1/customers with an idempotency key', era: null },
      { ...app, spec: restCreateSpec('rest-keyed', { keyed: true }) },
    ],
  ]);
  await releaseKept();
  // Every 2xx answer must be one customer row (and, over MCP, one audit event of its own).
  const counts = await admin(db.url, async (client) => {
    const customers = await client.query(
      `SELECT created_via::text AS via, count(*)::int AS n FROM customers WHERE email LIKE 'bench-%@load.test' GROUP BY 1`,
    );
    const audits = await client.query(
      `SELECT count(*)::int AS n FROM mcp_audit_events WHERE target = 'billing_customer_create' AND outcome = 'success' AND arguments->>'email' LIKE 'bench-%'`,
    );
    return { ...Object.fromEntries(customers.rows.map((r) => [r.via, r.n])), mcpAudits: audits.rows[0].n };
  });
  // A run stops with up to `connections` requests in flight whose writes commit unanswered: per
  // server process (warm-up + measured run) up to 2 × connections more rows than successful answers.
  const expected = (row) => row.answered ?? 0;
  const slack = 2 * config.connections * (rest.processes?.length ?? 1);
  const check = {
    restRows: counts.api ?? 0,
    restAnswered: expected(rest),
    mcpRows: counts.mcp ?? 0,
    mcpAnswered: expected(mcp),
    mcpAuditEvents: counts.mcpAudits,
    inFlightSlack: slack,
  };
  const within = (rowsCreated, answered) => rowsCreated >= answered && rowsCreated <= answered + slack;
  check.ok =
    within(check.restRows, check.restAnswered) && within(check.mcpRows, check.mcpAnswered) && check.mcpAuditEvents === check.mcpRows;
  notes.push(
    `Case 4 write check: ${check.restRows} customers created over REST for ${check.restAnswered} successful answers; ` +
      `${check.mcpRows} over MCP for ${check.mcpAnswered}, with ${check.mcpAuditEvents} audit events ` +
      `(at most ${slack} unanswered in-flight writes per row allowed): ${check.ok ? 'consistent' : 'INCONSISTENT'}.`,
  );
  await case4Floor(db);
  return check;
}

/**
 * Case 4's floor, after its write check: both writes' SQL on bare node:http + pg
 * (bench/servers/write-floor.ts, in a workspace of its own), for the ratio case 4 tends to.
 */
async function case4Floor(db) {
  const env = { DATABASE_URL: db.url };
  const floorRow = (key, variant, era, spec) =>
    measureRow({ case: 4, key, variant, era }, { entry: 'write-floor', database: db.name, env, spec });
  await floorRow('floor-rest', "floor: node:http + pg, the REST create's SQL (2 statements)", null, restCreateSpec('floor-rest'));
  await floorRow(
    'floor-mcp',
    "floor: node:http + pg, the MCP create's SQL (4 round trips, one transaction)",
    ERA_2026,
    mcpCreateSpec('floor-mcp', { keyed: true }),
  );
  await releaseKept();
}

/** A customer of its own for each preflight (`kind` names the row), with a key when asked. */
const preflightCustomer = (kind, keyed) => ({
  name: `Preflight ${kind} ${process.pid}`,
  email: `preflight-${kind}-${process.pid}-${Date.now()}@load.test`,
  ...(keyed ? { idempotency_key: `preflight-${kind}-${process.pid}-${Date.now()}` } : {}),
});

/** `POST /v1/customers`, a distinct customer per request (with an idempotency key: `keyed`). */
function restCreateSpec(kind, { keyed = false } = {}) {
  return {
    url: '{base}/v1/customers',
    method: 'POST',
    headers: (server) => ({ 'content-type': 'application/json', ...bearer(server) }),
    bodyFactory: keyed ? 'rest-create-keyed' : 'rest-create',
    get preflightBody() {
      return JSON.stringify(preflightCustomer(kind, keyed));
    },
    verify: 'rest-created',
  };
}

/** `tools/call billing_customer_create` (2026 era) with a fresh key per request; the preflight's key only when `keyed`. */
function mcpCreateSpec(kind, { keyed = false } = {}) {
  return {
    url: '{base}/mcp',
    method: 'POST',
    headers: (server) => mcpHeaders(ERA_2026, 'tools/call', 'billing_customer_create', bearer(server)),
    bodyFactory: 'mcp-create-2026',
    get preflightBody() {
      return mcpBody(ERA_2026, 'tools/call', { name: 'billing_customer_create', arguments: preflightCustomer(kind, keyed) });
    },
    verify: 'mcp-result',
  };
}

/**
 * Case 6: the read path against its floors. `GET /v1/invoices?limit=10` over REST and
 * `billing_invoices_search {limit: 10}` over MCP (2026 era) on the real application, then
 * bench/servers/floor.ts twice: the SQL of when the case was written in 3 statements
 * (FLOOR_MODE=three-statements), and the application's own guarantees and tricks and nothing else
 * (FLOOR_MODE=same-guarantee: its 1 s token cache, its one statement, prepared). Both answer the REST
 * route's JSON byte for byte (checked: a floor that does not is not a bound, and its targets are not
 * measurable). The floors read the demo data the billing app seeded on boot: every turn starts with
 * the application. The four rows are taken in turns like cases 1 and 4 (`BENCH_PROCESSES`). Run
 * right after case 1 (same server entry and database), so the smoke run keeps one application
 * server for both.
 */
async function case6(db) {
  const env = { DATABASE_URL: db.url };
  const rest = { url: '{base}/v1/invoices?limit=10', method: 'GET', headers: bearer, verify: 'rest-invoices' };
  const floorRow = (key, variant, mode) => [
    { case: 6, key, variant, era: null },
    { entry: 'floor', database: db.name, env: { ...env, FLOOR_MODE: mode }, spec: rest },
  ];
  await measureInTurns([
    [
      { case: 6, key: 'rest', variant: 'REST GET /v1/invoices?limit=10', era: null },
      { entry: 'billing-app', database: db.name, env, spec: rest },
    ],
    [
      { case: 6, key: 'mcp-2026', variant: 'MCP tools/call billing_invoices_search {limit:10}', era: ERA_2026 },
      {
        entry: 'billing-app',
        database: db.name,
        env,
        spec: {
          url: '{base}/mcp',
          method: 'POST',
          headers: (server) => mcpHeaders(ERA_2026, 'tools/call', 'billing_invoices_search', bearer(server)),
          body: mcpBody(ERA_2026, 'tools/call', { name: 'billing_invoices_search', arguments: { limit: 10 } }),
          verify: 'mcp-invoices',
        },
      },
    ],
    floorRow('floor', 'floor: node:http + pg, same SQL in 3 statements', 'three-statements'),
    floorRow('floor-cached', 'floor, same guarantees: node:http + pg, 1 s token cache, one prepared statement', 'same-guarantee'),
  ]);
  // A floor answers the REST route's JSON byte for byte (same data, same day), or it bounds nothing.
  const answer = find(6, 'rest')?.preflight;
  for (const key of ['floor', 'floor-cached']) {
    const floor = find(6, key);
    if (!answer || !floor?.preflight) continue;
    const same = floor.preflight.sha256 === answer.sha256;
    if (!same) floor.differs = `its answer (${floor.preflight.bytes} bytes) is not the REST route's (${answer.bytes} bytes)`;
    notes.push(
      `Case 6, ${floor.variant}: ${same ? `the same answer as the REST route, byte for byte (${answer.bytes} bytes, SHA-256 ${answer.sha256.slice(0, 12)}…)` : `DIFFERENT: ${floor.differs}; its targets are not measurable`}.`,
    );
  }
}

/**
 * Case 7: stream mode, 2025 era (a session from `initialize`). The same echo tool asked twice on
 * the same server: without a progress token (nothing is emitted: a plain JSON answer, what stream
 * mode costs a call that streams nothing) and with one (three `notifications/progress`, then the
 * result, as one SSE answer).
 */
async function case7() {
  let session;
  const openSession = async (server) => {
    const url = `${server.base}/mcp`;
    const headers = mcpHeaders(ERA_2025, 'initialize');
    const init = await fetch(url, {
      method: 'POST',
      headers,
      body: mcpBody(ERA_2025, 'initialize', {
        protocolVersion: ERA_2025,
        capabilities: {},
        clientInfo: { name: 'bench', version: '1.0.0' },
      }),
    });
    session = init.headers.get('mcp-session-id');
    await init.text();
    if (!session) throw new Error(`initialize answered ${init.status} without a session id`);
    const ready = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    await ready.text();
  };
  const call = (meta) => ({
    url: '{base}/mcp',
    method: 'POST',
    headers: () => ({ ...mcpHeaders(ERA_2025, 'tools/call', 'echo'), 'mcp-session-id': session }),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'hello, bench' }, ...meta },
    }),
  });
  await measureRow(
    { case: 7, key: 'json', variant: 'stream mode, echo without a progress token (plain JSON answer)', era: ERA_2025 },
    { entry: 'stream-ours', before: openSession, spec: { ...call({}), verify: 'mcp-result' } },
  );
  await measureRow(
    { case: 7, key: 'progress', variant: 'stream mode, echo with 3 progress notifications (SSE answer)', era: ERA_2025 },
    { entry: 'stream-ours', before: openSession, spec: { ...call({ _meta: { progressToken: 'bench' } }), verify: 'mcp-progress' } },
  );
}

async function case5() {
  const era = ERA_2026;
  return measureRow(
    { case: 5, key: 'soak', variant: `soak: ${config.soakRequests.toLocaleString('en-US')} × echo tools/call, ours`, era },
    {
      entry: 'echo-ours',
      amount: config.soakRequests,
      nodeOptions: ['--expose-gc'],
      memoryProbe: true,
      spec: {
        url: '{base}/mcp',
        method: 'POST',
        headers: mcpHeaders(era, 'tools/call', 'echo'),
        body: mcpBody(era, 'tools/call', { name: 'echo', arguments: { text: 'hello, soak' } }),
        verify: 'mcp-result',
      },
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Case 8: MCP tasks (docs/tasks.md) on two server processes sharing one database
// ---------------------------------------------------------------------------------------------
const TASK_WORK = {
  bench_customer_summary: {
    describe: (args, data) =>
      `\`bench_customer_summary\` (CustomerSummaryService.summarize, the work of billing_customer_summary: one statement) ` +
      `for ${args.email} (${data.recent_invoices.length} recent invoices, balances in ${data.balances.length} currencies)`,
  },
  bench_statement_export: {
    describe: (args, data) =>
      `\`bench_statement_export\` (StatementsService.export, the work of billing_statement_export), ${args.from} to ${args.to}: ` +
      `${data.invoice_rows} invoice rows + ${data.payment_rows} payment rows, a ${fmt(data.size_bytes / 1024, 1)} KiB CSV stored as an attachment`,
  },
};

/**
 * One run of bench/task-load.mjs (its own process: warm-up, measured phase, and in task mode the
 * drain of unfinished tasks). CPU and RSS are read at the start and the end of the measured phase
 * (the load generator prints a line at each): the two server processes, this database's
 * PostgreSQL backends (pg-boss's included), the load generator, the rest of the machine.
 */
async function taskLoad(label, spec, servers, database) {
  const configPath = join(tmpDir, `${label}.json`);
  const resultPath = join(tmpDir, `${label}.result.json`);
  writeFileSync(
    configPath,
    JSON.stringify({ connections: config.connections, warmupS: config.warmupS, durationS: config.durationS, ...spec }),
  );
  const [command, ...argv] = pinning.others([process.execPath, join(root, 'bench', 'task-load.mjs'), configPath, resultPath]);
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  const exited = new Promise((done) => child.once('exit', (c) => done(c)));
  const snapshot = (backends) => ({
    wall: performance.now(),
    machine: machineBusyMs(),
    servers: servers.map((server) => processStats(server.pid)),
    backends: cpuMsOf(backends),
    loadGenerator: processStats(child.pid).cpuMs,
    self: process.cpuUsage(),
  });
  let backends = [];
  let startSnapshot;
  let endSnapshot;
  let pending = '';
  child.stdout.on('data', (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) {
      if (line === 'PHASE measured') {
        startSnapshot = backendPids(database).then((pids) => {
          backends = pids;
          return snapshot(pids);
        });
      } else if (line === 'PHASE end') endSnapshot = snapshot(backends);
    }
  });
  const code = await exited;
  children.delete(child);
  if (code !== 0) throw new Error(`${label}: task load generator exited with code ${code}`);
  const result = JSON.parse(readFileSync(resultPath, 'utf8'));
  const a = await startSnapshot;
  const b = endSnapshot;
  if (!a || !b) throw new Error(`${label}: the load generator did not report its measured phase`);
  const wallMs = b.wall - a.wall;
  const serverMs = b.servers.map((stats, i) => stats.cpuMs - a.servers[i].cpuMs);
  const serversMs = serverMs.reduce((x, y) => x + y, 0);
  const backendsMs = b.backends - a.backends;
  const loadGeneratorMs = b.loadGenerator - a.loadGenerator;
  const selfMs = (b.self.user + b.self.system - a.self.user - a.self.system) / 1000;
  const otherMs = b.machine - a.machine - serversMs - backendsMs - loadGeneratorMs - selfMs;
  return {
    result,
    serversMs,
    rssMiB: b.servers.map((stats) => stats.rssMiB),
    cores: {
      server: serversMs / wallMs,
      perServer: serverMs.map((ms) => ms / wallMs),
      postgres: backendsMs / wallMs,
      loadGenerator: loadGeneratorMs / wallMs,
      other: Math.max(0, otherMs) / wallMs,
    },
  };
}

/** Checks one inline call and one task followed to completion (created on one process, polled on the other). */
async function taskPreflight(servers, token, tool, args) {
  const post = async (server, method, name, params, capabilities) => {
    const response = await fetch(`${server.base}/mcp`, {
      method: 'POST',
      headers: mcpHeaders(ERA_2026, method, name, { authorization: `Bearer ${token}` }),
      body: mcpBody(ERA_2026, method, params, 1, capabilities),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`preflight ${method} answered ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text);
  };
  const inline = await post(servers[0], 'tools/call', tool, { name: tool, arguments: args });
  if (inline.result?.resultType === 'task' || !VERIFY['mcp-result'](JSON.stringify(inline))) {
    throw new Error(`preflight: the inline call answered ${JSON.stringify(inline).slice(0, 500)}`);
  }
  const created = await post(servers[0], 'tools/call', tool, { name: tool, arguments: args }, TASKS_CAPABILITIES);
  const taskId = created.result?.taskId;
  if (created.result?.resultType !== 'task' || !taskId)
    throw new Error(`preflight: no CreateTaskResult: ${JSON.stringify(created).slice(0, 500)}`);
  const started = performance.now();
  for (;;) {
    const got = await post(servers[1 % servers.length], 'tasks/get', taskId, { taskId }, TASKS_CAPABILITIES);
    const status = got.result?.status;
    const answer = got.result?.result;
    if (status === 'completed' && !answer?.isError && /"ok":\s*true/.test(answer?.content?.[0]?.text ?? '')) {
      return { data: JSON.parse(got.result.result.content[0].text).data, seconds: (performance.now() - started) / 1000 };
    }
    if (status !== 'working' || performance.now() - started > 60_000) {
      throw new Error(`preflight: the task did not complete: ${JSON.stringify(got).slice(0, 500)}`);
    }
    await new Promise((done) => setTimeout(done, 50));
  }
}

/**
 * Case 8: MCP tasks. Two processes of bench/servers/billing-tasks.ts (the application plus
 * `bench_statement_export`, the app's statement export declared `task: 'optional'`) on the bench
 * database, each with its task workers (TASK_WORKERS, default 2) on pg-boss. The load
 * (bench/task-load.mjs, `connections` clients, requests round-robin over both processes):
 * 1. tasks: create (tools/call declaring the extension → CreateTaskResult, once the task row and
 *    its pg-boss job committed), then tasks/get every BENCH_TASK_CLIENT_POLL_MS until completed;
 *    two rows: the create's latency, and completed tasks/s with their latency end to end;
 * 2. inline: the same tools/call without the extension (the work in the request), same processes,
 *    same number of clients.
 * Figures only, no target for them. Then the queue's own figures, with targets (case8Queue).
 */
async function case8(db) {
  await releaseKept();
  const era = ERA_2026;
  const workers = config.taskWorkers ?? '2';
  // The layer allows 20 unfinished tasks per workspace (tasks.maxActivePerWorkspace): at most 8 clients per workspace.
  const workspaces = Math.max(1, Math.ceil(config.connections / 8));
  const env = {
    DATABASE_URL: db.url,
    // The load rows use the first `workspaces`; the queue's fairness run needs two (A and B).
    BENCH_TASK_WORKSPACES: String(Math.max(2, workspaces)),
    // The burst and the flood put up to 50 unfinished tasks in one workspace: the server raises the layer's cap of 20 (billing-tasks.ts).
    BENCH_TASK_MAX_ACTIVE: String(Math.max(20, config.taskBurst, config.taskFlood) + 10),
    ...(config.taskWorkers ? { TASK_WORKERS: config.taskWorkers } : {}),
    ...(config.taskPollMs ? { TASK_POLL_MS: config.taskPollMs } : {}),
  };
  const tool = config.taskTool;
  if (!TASK_WORK[tool]) throw new Error(`BENCH_TASK_TOOL must be one of ${Object.keys(TASK_WORK).join(', ')}`);
  const create = {
    case: 8,
    key: 'task-create',
    variant: `tasks: tools/call answered with a CreateTaskResult (task row + pg-boss job committed), 2 processes`,
    era,
  };
  const complete = {
    case: 8,
    key: 'task-complete',
    variant: `tasks: completed end to end (create, tasks/get every ${config.taskClientPollMs} ms until completed), 2 processes × ${workers} workers`,
    era,
  };
  const inline = {
    case: 8,
    key: 'inline',
    variant: 'inline: the same tool without the extension (work in the request), same 2 processes',
    era,
  };
  const servers = [];
  let loadRowsRan = false;
  say(`case8: MCP tasks, 2 server processes × ${workers} task workers, ${workspaces} workspace(s), ${config.connections} clients`);
  try {
    create.quietBefore = await waitQuiet();
    // One after the other: each seeds the bench workspaces on boot (the second finds them seeded).
    for (const name of ['a', 'b']) servers.push(await startServer('billing-tasks', `case8-server-${name}`, env));
    const tokens = servers[0].tokens.slice(0, workspaces);
    const iso = (date) => date.toISOString().slice(0, 10);
    const args =
      tool === 'bench_statement_export'
        ? // A small statement: the last 30 days of the demo data of one workspace (a few dozen rows).
          { from: iso(new Date(Date.now() - 29 * 86_400_000)), to: iso(new Date()) }
        : { email: await pickSummaryEmail(db, 'bench-tasks-1') };
    const preflight = await taskPreflight(servers, tokens[0], tool, args);
    notes.push(
      `Case 8 work: ${TASK_WORK[tool].describe(args, preflight.data)}, declared \`task: 'optional'\`; ` +
        `${workspaces} workspace(s) of the same demo data, clients spread over them (one token each). ` +
        `The preflight's task completed in ${fmt(preflight.seconds, 2)} s (idle workers).`,
    );
    const base = { servers: servers.map((s) => s.base), tokens, tool, arguments: args };
    const rssText = (list) => list.map((mib) => fmt(mib, 0)).join(' + ');

    say(`case8-tasks: create, then tasks/get every ${config.taskClientPollMs} ms until completed (${era})`);
    const tasks = await taskLoad('case8-tasks', { ...base, mode: 'task', pollMs: config.taskClientPollMs, drainS: 60 }, servers, db.name);
    const t = tasks.result;
    const createErrors = t.errorsByKind.create ?? 0;
    Object.assign(create, {
      rps: t.createsPerS,
      p50: t.create.p50,
      p99: t.create.p99,
      errors: createErrors,
      rssText: rssText(tasks.rssMiB),
      serverCpuUsPerRequest: null,
      cores: tasks.cores,
      result: { ...t, taskIds: undefined, windowIds: undefined },
    });
    Object.assign(complete, {
      rps: t.tasksPerS,
      p50: t.complete.p50,
      p99: t.complete.p99,
      errors: t.errors + t.unfinished,
      rssText: rssText(tasks.rssMiB),
      // Both processes' CPU over the measured phase per task completed in it (creates and polls included).
      serverCpuUsPerRequest: t.complete.count ? (tasks.serversMs * 1000) / t.complete.count : null,
      cores: tasks.cores,
    });
    say(
      `  creates ${fmt(t.createsPerS, 0)}/s (p50 ${fmt(t.create.p50, 2)} ms, p99 ${fmt(t.create.p99, 2)} ms); ` +
        `completed ${fmt(t.tasksPerS, 0)} tasks/s (p50 ${fmt(t.complete.p50, 1)} ms, p99 ${fmt(t.complete.p99, 1)} ms); ` +
        `errors ${t.errors}, unfinished ${t.unfinished}; cores: servers ${tasks.cores.perServer.map((c) => fmt(c, 2)).join(' + ')}, ` +
        `postgres ${fmt(tasks.cores.postgres, 2)}, load generator ${fmt(tasks.cores.loadGenerator, 2)}, other ${fmt(tasks.cores.other, 2)}`,
    );
    if (t.errors) notes.push(`Case 8 task errors: ${JSON.stringify(t.errorsByKind)}; e.g. ${t.errorSamples.join(' | ')}`);

    // Where a task's time goes, by the server's own clock (mcp_tasks), for the tasks completed in the measured phase.
    const split = await admin(db.url, async (client) => {
      const ms = (expression, p) => `percentile_cont(${p}) WITHIN GROUP (ORDER BY extract(epoch FROM ${expression}) * 1000)`;
      const { rows: found } = await client.query(
        `SELECT count(*)::int AS n, max(attempts)::int AS max_attempts,
                ${ms('started_at - created_at', 0.5)} AS wait_p50, ${ms('started_at - created_at', 0.99)} AS wait_p99,
                ${ms('last_updated_at - started_at', 0.5)} AS run_p50, ${ms('last_updated_at - started_at', 0.99)} AS run_p99,
                ${ms('last_updated_at - created_at', 0.5)} AS total_p50, ${ms('last_updated_at - created_at', 0.99)} AS total_p99
         FROM mcp_tasks WHERE id = ANY($1::text[]) AND status = 'completed'`,
        [t.windowIds],
      );
      // Durable when answered: every CreateTaskResult's task has its row and its pg-boss job.
      const { rows: stored } = await client.query(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'completed')::int AS completed FROM mcp_tasks WHERE id = ANY($1::text[])`,
        [t.taskIds],
      );
      const { rows: jobs } = await client.query(
        `SELECT count(DISTINCT data->>'taskId')::int AS n FROM pgboss.job WHERE name = 'mcp-tasks' AND data->>'taskId' = ANY($1::text[])`,
        [t.taskIds],
      );
      // The queue's own view of the same tasks: job sent → fetched by a worker, fetched → done, and
      // how busy the workers were (time inside a job over the measured run × all workers).
      const { rows: queue } = await client.query(
        `WITH j AS (
           SELECT count(*) AS jobs, min(created_on) AS sent, max(started_on) AS fetched, max(completed_on) AS done,
                  sum(extract(epoch FROM completed_on - started_on)) AS busy_s
           FROM pgboss.job WHERE name = 'mcp-tasks' AND data->>'taskId' = ANY($1::text[]) GROUP BY data->>'taskId')
         SELECT max(jobs)::int AS max_jobs, sum(busy_s) AS busy_s,
                ${ms('fetched - sent', 0.5)} AS fetch_p50, ${ms('fetched - sent', 0.99)} AS fetch_p99,
                ${ms('done - fetched', 0.5)} AS job_p50, ${ms('done - fetched', 0.99)} AS job_p99
         FROM j`,
        [t.windowIds],
      );
      return { ...found[0], ...queue[0], rows: stored[0].n, completed: stored[0].completed, jobs: jobs[0].n };
    });
    complete.serverSplit = split;
    const durable = split.rows === t.tasksCreated && split.jobs === t.tasksCreated;
    complete.taskCheck = { answered: t.tasksCreated, rows: split.rows, jobs: split.jobs, completed: split.completed, ok: durable };
    notes.push(
      `Case 8, where a task's time goes (server clock, mcp_tasks, the ${split.n} tasks completed in the measured run): ` +
        `queued (created → started by a worker) p50 ${fmt(split.wait_p50, 1)} ms, p99 ${fmt(split.wait_p99, 1)} ms; ` +
        `run (started → completed, in the work's transaction) p50 ${fmt(split.run_p50, 1)} ms, p99 ${fmt(split.run_p99, 1)} ms; ` +
        `created → completed p50 ${fmt(split.total_p50, 1)} ms, p99 ${fmt(split.total_p99, 1)} ms; at most ${split.max_attempts} attempt(s). ` +
        `pg-boss (pgboss.job): sent → fetched by a worker p50 ${fmt(split.fetch_p50, 1)} ms, p99 ${fmt(split.fetch_p99, 1)} ms; ` +
        `fetched → job done p50 ${fmt(split.job_p50, 1)} ms, p99 ${fmt(split.job_p99, 1)} ms; at most ${split.max_jobs} job(s) per task; ` +
        `2 processes × ${config.taskWorkers ?? 2} workers spent ${fmt((100 * split.busy_s) / (config.durationS * 2 * Number(config.taskWorkers ?? 2)), 0)}% of the run inside these jobs. ` +
        `The client adds its polling (tasks/get every ${config.taskClientPollMs} ms: ${fmt(t.pollsPerCompletedTask, 1)} per task, ` +
        `${fmt(t.pollsPerS, 0)}/s, p50 ${fmt(t.poll.p50, 2)} ms, p99 ${fmt(t.poll.p99, 2)} ms each).`,
    );
    notes.push(
      `Case 8 task check: ${t.tasksCreated} CreateTaskResults (warm-up, run and drain), ${split.rows} task rows and ${split.jobs} pg-boss jobs for them ` +
        `(${durable ? 'every one' : 'MISSING SOME'}); ${split.completed} completed, ${t.unfinished} unfinished ${t.drainS ? `after a ${fmt(t.drainS, 1)} s drain` : ''}. ` +
        `Server CPU during the task run: ${tasks.cores.perServer.map((c, i) => `process ${'ab'[i]} ${fmt(c, 2)}`).join(', ')} cores; ` +
        `PostgreSQL ${fmt(tasks.cores.postgres, 2)} cores (${fmt((tasks.cores.postgres * config.durationS * 1e6) / Math.max(1, t.complete.count), 0)} µs per task).`,
    );
    if (!durable) ownFailures++;

    inline.quietBefore = await waitQuiet();
    say(`case8-inline: the same tools/call without the extension (${era})`);
    const run = await taskLoad('case8-inline', { ...base, mode: 'inline' }, servers, db.name);
    const r = run.result;
    Object.assign(inline, {
      rps: r.rps,
      p50: r.inline.p50,
      p99: r.inline.p99,
      errors: r.errors,
      rssText: rssText(run.rssMiB),
      serverCpuUsPerRequest: r.inline.count ? (run.serversMs * 1000) / r.inline.count : null,
      cores: run.cores,
      result: r,
    });
    say(
      `  ${fmt(r.rps, 0)} req/s, p50 ${fmt(r.inline.p50, 2)} ms, p99 ${fmt(r.inline.p99, 2)} ms, errors ${r.errors}; ` +
        `cores: servers ${run.cores.perServer.map((c) => fmt(c, 2)).join(' + ')}, postgres ${fmt(run.cores.postgres, 2)}, ` +
        `load generator ${fmt(run.cores.loadGenerator, 2)}, other ${fmt(run.cores.other, 2)}`,
    );
    if (r.errors) notes.push(`Case 8 inline errors: ${JSON.stringify(r.errorsByKind)}; e.g. ${r.errorSamples.join(' | ')}`);
    notes.push(
      `Case 8 for context (no target): completed tasks/s / inline req/s ${fmt(t.tasksPerS / r.rps, 2)}× ` +
        `(${fmt(t.tasksPerS, 0)} vs ${fmt(r.rps, 0)}); server CPU per task / per inline call ` +
        `${fmt(complete.serverCpuUsPerRequest / inline.serverCpuUsPerRequest, 2)}× ` +
        `(${fmt(complete.serverCpuUsPerRequest, 0)} vs ${fmt(inline.serverCpuUsPerRequest, 0)} µs, both processes).`,
    );
    loadRowsRan = true;
  } catch (error) {
    ownFailures++;
    for (const row of [create, complete, inline]) if (row.rps === undefined) row.failed = error.message;
    say(`  FAILED: ${error.message.split('\n')[0]}`);
    console.error(error.message);
  }
  rows.push(create, complete, inline);
  // The queue's figures: the pair of 2 + 2 workers is this one when it runs 2 workers per process.
  const reused = loadRowsRan && Number(workers) === 2 ? servers.splice(0) : undefined;
  for (const server of servers) await server.stop();
  if (config.taskPickups) await case8Queue(db, env, reused);
  else for (const server of reused ?? []) await server.stop();
}

/** One run of bench/task-load.mjs in one of the queue's modes (pickup, burst, fairness); resolves with its result. */
async function queueLoad(label, spec) {
  const configPath = join(tmpDir, `${label}.json`);
  const resultPath = join(tmpDir, `${label}.result.json`);
  writeFileSync(configPath, JSON.stringify({ tool: 'bench_sleep', watchMs: 10, ...spec }));
  const [command, ...argv] = pinning.others([process.execPath, join(root, 'bench', 'task-load.mjs'), configPath, resultPath]);
  const child = spawn(command, argv, { stdio: ['ignore', 'inherit', 'inherit'] });
  children.add(child);
  const code = await new Promise((done) => child.once('exit', (c) => done(c)));
  children.delete(child);
  if (code !== 0) throw new Error(`${label}: task load generator exited with code ${code}`);
  return JSON.parse(readFileSync(resultPath, 'utf8'));
}

/** Nearest-rank percentile (as the load generators compute theirs); null for no values. */
function percentile(values, p) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const spread = (values) => ({ n: values.length, p50: percentile(values, 50), p99: percentile(values, 99), max: percentile(values, 100) });

/**
 * The server's own times of tasks (epoch ms), from mcp_tasks (the layer's clock: `createdAt` taken
 * before the create's INSERT, `startedAt` by the worker that took it, `lastUpdatedAt` of a
 * completed task set by the completion inside the work's transaction) and from pgboss.job (the
 * database's clock: `created_on`, the `now()` of the create's transaction; `started_on`, the fetch),
 * with the process that ran each (`pid` in bench_sleep's result).
 */
async function taskTimes(db, ids) {
  return admin(db.url, async (client) => {
    const { rows: found } = await client.query(
      `SELECT t.id, t.status, t.attempts, t.result->'content'->0->>'text' AS text,
              (extract(epoch FROM t.created_at) * 1000)::float8 AS created,
              (extract(epoch FROM t.started_at) * 1000)::float8 AS started,
              (extract(epoch FROM t.last_updated_at) * 1000)::float8 AS done,
              (extract(epoch FROM j.sent) * 1000)::float8 AS job_sent,
              (extract(epoch FROM j.fetched) * 1000)::float8 AS job_fetched, j.jobs
       FROM mcp_tasks t LEFT JOIN (
         SELECT data->>'taskId' AS id, count(*)::int AS jobs, min(created_on) AS sent, max(started_on) AS fetched
         FROM pgboss.job WHERE name = 'mcp-tasks' AND data->>'taskId' = ANY($1::text[]) GROUP BY 1) j ON j.id = t.id
       WHERE t.id = ANY($1::text[])`,
      [ids],
    );
    return new Map(
      found.map((row) => {
        let pid;
        try {
          pid = JSON.parse(row.text).data?.pid;
        } catch {
          pid = undefined;
        }
        return [row.id, { ...row, pid, completed: row.status === 'completed' && pid !== undefined }];
      }),
    );
  });
}

/** A queue run's tasks joined with their server times; throws when a task is missing from mcp_tasks. */
async function timedTasks(db, result) {
  const times = await taskTimes(
    db,
    result.tasks.map((task) => task.id),
  );
  return result.tasks.map((task) => {
    const time = times.get(task.id);
    if (!time) throw new Error(`task ${task.id} answered with a CreateTaskResult has no mcp_tasks row`);
    return { ...task, ...time };
  });
}

/**
 * Case 8, the queue's own figures, with `bench_sleep` (a run of a known length spent waiting in
 * the database) created through the real path (tools/call with the tasks extension, a write's
 * transaction) on two processes of bench/servers/billing-tasks.ts, TASK_WORKERS per process as the
 * app reads it (TASK_POLL_MS as the load rows have it):
 * - idle pickup, on 1 worker (process a: 1, b: 0): one task at a time, created alternately on a
 *   (its own workers are woken) and on b (the worker is in the other process), each after the
 *   previous finished and a pause; created → started (mcp_tasks), and the short task end to end;
 * - burst drain: `taskBurst` tasks created at once, on 1 (1 + 0), 2 (1 + 1) and 4 (2 + 2) workers,
 *   a fresh pair of processes each (the 2 + 2 pair is the load rows' when it runs 2 per process);
 *   tasks/s from the first created to the last completed;
 * - fairness, on 4 workers (2 + 2): workspace A floods `taskFlood` longer tasks at once, then
 *   workspace B sends short ones one at a time; B's wait (created → started) while A's are queued.
 */
async function case8Queue(db, env, reused) {
  const short = { ms: config.taskShortMs };
  const era = ERA_2026;
  const pickupSame = {
    case: 8,
    key: 'pickup-same',
    variant: `queue: idle pickup, created on the process with the worker (its local wake-up), created → started; 1 worker (a 1 + b 0), bench_sleep ${short.ms} ms`,
    era,
  };
  const pickupOther = {
    case: 8,
    key: 'pickup-other',
    variant: `queue: idle pickup, created on the other process (no workers: the wake-up crosses processes), created → started; same run`,
    era,
  };
  const shortSame = {
    case: 8,
    key: 'short-e2e-same',
    variant: `queue: the same short tasks end to end (created → completed), created on the process with the worker`,
    era,
  };
  const shortOther = {
    case: 8,
    key: 'short-e2e-other',
    variant: `queue: the same short tasks end to end (created → completed), created on the other process`,
    era,
  };
  const burst = Object.fromEntries(
    [
      [1, [1, 0]],
      [2, [1, 1]],
      [4, [2, 2]],
    ].map(([total, split]) => [
      total,
      {
        case: 8,
        key: `burst-${total}`,
        variant: `queue: burst of ${config.taskBurst} × bench_sleep ${short.ms} ms created at once, ${total} worker(s) (a ${split[0]} + b ${split[1]}); tasks/s from the first created to the last completed, p50/p99 created → completed`,
        era,
        split,
      },
    ]),
  );
  const fair = {
    case: 8,
    key: 'fair-b',
    variant: `queue: fairness, workspace B's bench_sleep ${short.ms} ms one at a time while workspace A's ${config.taskFlood} × ${config.taskFloodMs} ms are queued: B's created → started, 4 workers (a 2 + b 2)`,
    era,
  };
  const base = (servers) => ({ servers: servers.map((server) => server.base), databaseUrl: db.url, tool: 'bench_sleep' });
  const failure = (error, ...list) => {
    ownFailures++;
    for (const row of list) if (row.p50 === undefined) row.failed = error.message;
    say(`  FAILED: ${error.message.split('\n')[0]}`);
    console.error(error.message);
  };
  const unfinishedNote = (result) => (result.unfinished.length ? `; ${result.unfinished.length} UNFINISHED at the time limit` : '');

  for (const total of [4, 1, 2]) {
    const split = burst[total].split;
    const own = total === 4 && reused ? reused : undefined;
    const servers = own ?? [];
    const scenarioRows = [
      burst[total],
      ...(total === 1 ? [pickupSame, pickupOther, shortSame, shortOther] : []),
      ...(total === 4 ? [fair] : []),
    ];
    try {
      if (!own) {
        for (const [i, count] of split.entries()) {
          servers.push(await startServer('billing-tasks', `case8-queue-${total}-${'ab'[i]}`, { ...env, TASK_WORKERS: String(count) }));
        }
      }
      say(`case8-queue: ${total} worker(s), a ${split[0]} + b ${split[1]}${own ? " (the load rows' processes)" : ''}`);
      const [tokenA, tokenB] = servers[0].tokens;
      // A task created on each process first (cold code paths), not measured.
      const warm = await queueLoad(`case8-queue-${total}-warmup`, {
        ...base(servers),
        mode: 'pickup',
        tokens: [tokenA],
        arguments: short,
        count: 2,
        gapMs: [50, 50],
        timeoutS: 30,
      });
      if (warm.errors || warm.unfinished.length)
        throw new Error(`warm-up: ${JSON.stringify(warm.errorSamples)} ${warm.unfinished.length} unfinished`);

      if (total === 1) {
        await waitQuiet();
        say(
          `case8-queue-pickup: ${config.taskPickups} tasks one at a time, alternately on a and b, ${config.taskPickupGapMs.join('–')} ms apart`,
        );
        const result = await queueLoad('case8-queue-pickup', {
          ...base(servers),
          mode: 'pickup',
          tokens: [tokenA],
          arguments: short,
          count: config.taskPickups,
          gapMs: config.taskPickupGapMs,
          timeoutS: 20,
        });
        const tasks = (await timedTasks(db, result)).filter((task) => task.completed);
        const errors = result.errors + result.unfinished.length + (result.tasks.length - tasks.length);
        // Same process: created on the process whose worker ran it (pid from bench_sleep's answer).
        const isSame = (task) => task.pid === servers[task.server].pid;
        const halves = [
          [pickupSame, shortSame, tasks.filter(isSame)],
          [pickupOther, shortOther, tasks.filter((task) => !isSame(task))],
        ];
        for (const [row, e2eRow, list] of halves) {
          const e2e = spread(list.map((task) => task.done - task.created));
          // The run itself (started → completed, inside the work's transaction): what end to end is compared with.
          const run = spread(list.map((task) => task.done - task.started));
          Object.assign(e2eRow, { rps: null, p50: e2e.p50, p99: e2e.p99, errors, count: list.length, e2e, run });
          const wait = spread(list.map((task) => task.started - task.created));
          Object.assign(row, {
            rps: null,
            p50: wait.p50,
            p99: wait.p99,
            errors,
            count: list.length,
            wait,
            // pg-boss's view: job sent (the create's transaction began) → fetched by a worker.
            jobWait: spread(list.map((task) => task.job_fetched - task.job_sent)),
            // The client's CreateTaskResult (this machine's clock) → started: negative when the run began before the answer arrived.
            afterAnswer: spread(list.map((task) => task.started - task.answeredAt)),
            // Fetched → started: the worker's reads before it marks the task started.
            fetchToStart: spread(list.map((task) => task.started - task.job_fetched)),
          });
        }
        say(
          `  created → started: same process p50 ${fmt(pickupSame.p50, 1)} ms, p99 ${fmt(pickupSame.p99, 1)} ms (${pickupSame.count}); ` +
            `other process p50 ${fmt(pickupOther.p50, 1)} ms, p99 ${fmt(pickupOther.p99, 1)} ms (${pickupOther.count}); ` +
            `created → completed p50 ${fmt(shortSame.p50, 1)} / ${fmt(shortOther.p50, 1)} ms (run p50 ${fmt(shortSame.run.p50, 1)} ms)${unfinishedNote(result)}`,
        );
        if (result.errors)
          notes.push(`Case 8 idle pickup errors: ${JSON.stringify(result.errorsByKind)}; e.g. ${result.errorSamples.join(' | ')}`);
        const line = (label, row, e2eRow) =>
          `${label} (${row.count}): created → started p50 ${fmt(row.wait.p50, 1)} / p99 ${fmt(row.wait.p99, 1)} / max ${fmt(row.wait.max, 1)} ms; ` +
          `pg-boss sent → fetched p50 ${fmt(row.jobWait.p50, 1)} / p99 ${fmt(row.jobWait.p99, 1)} ms; ` +
          `fetched → started p50 ${fmt(row.fetchToStart.p50, 1)} ms; the client's CreateTaskResult → started p50 ${fmt(row.afterAnswer.p50, 1)} / p99 ${fmt(row.afterAnswer.p99, 1)} ms; ` +
          `created → completed p50 ${fmt(e2eRow.e2e.p50, 1)} / p99 ${fmt(e2eRow.e2e.p99, 1)} ms, the run (started → completed) p50 ${fmt(e2eRow.run.p50, 1)} ms`;
        notes.push(
          `Case 8 idle pickup (${tasks.length} bench_sleep ${short.ms} ms tasks, one at a time, ${config.taskPickupGapMs.join('–')} ms after the previous finished, ` +
            `created alternately on process a (1 worker) and b (0 workers); TASK_POLL_MS ${config.taskPollMs ?? '1000 (default)'}): ` +
            `${line('created on the process that ran it', pickupSame, shortSame)}. ${line('Created on the other', pickupOther, shortOther)}.`,
        );
      }

      await waitQuiet();
      say(`case8-queue-burst: ${config.taskBurst} tasks at once on ${total} worker(s)`);
      const result = await queueLoad(`case8-queue-burst-${total}`, {
        ...base(servers),
        mode: 'burst',
        tokens: [tokenA],
        arguments: short,
        count: config.taskBurst,
        watchMs: 50,
        timeoutS: 30 + 2 * config.taskBurst,
      });
      const tasks = (await timedTasks(db, result)).filter((task) => task.completed);
      const first = Math.min(...tasks.map((task) => task.created));
      const drainMs = Math.max(...tasks.map((task) => task.done)) - first;
      const e2e = spread(tasks.map((task) => task.done - task.created));
      const busyMs = tasks.reduce((sum, task) => sum + (task.done - task.started), 0);
      Object.assign(burst[total], {
        rps: tasks.length ? (tasks.length * 1000) / drainMs : null,
        p50: e2e.p50,
        p99: e2e.p99,
        errors: result.errors + result.unfinished.length + (result.tasks.length - tasks.length),
        drainMs,
        completed: tasks.length,
        createSpanMs: result.createSpanMs,
        wait: spread(tasks.map((task) => task.started - task.created)),
        busy: busyMs / (drainMs * total),
        perProcess: servers.map((server) => tasks.filter((task) => task.pid === server.pid).length),
        maxAttempts: Math.max(...tasks.map((task) => task.attempts)),
        maxJobs: Math.max(...tasks.map((task) => task.jobs ?? 0)),
      });
      const b = burst[total];
      say(
        `  ${b.completed} completed in ${fmt(drainMs / 1000, 2)} s: ${fmt(b.rps, 1)} tasks/s; created → completed p50 ${fmt(e2e.p50, 0)} ms, ` +
          `p99 ${fmt(e2e.p99, 0)} ms; creates took ${fmt(result.createSpanMs, 0)} ms${unfinishedNote(result)}`,
      );
      if (result.errors)
        notes.push(
          `Case 8 burst (${total} workers) errors: ${JSON.stringify(result.errorsByKind)}; e.g. ${result.errorSamples.join(' | ')}`,
        );

      if (total === 4) {
        await waitQuiet();
        say(
          `case8-queue-fairness: workspace A ${config.taskFlood} × ${config.taskFloodMs} ms at once, B ${config.taskFairCalls} × ${short.ms} ms one at a time`,
        );
        const outcome = await queueLoad('case8-queue-fairness', {
          ...base(servers),
          mode: 'fairness',
          tokens: [tokenA],
          arguments: short,
          flood: { token: tokenA, arguments: { ms: config.taskFloodMs }, count: config.taskFlood },
          fair: { token: tokenB, arguments: short, count: config.taskFairCalls },
          timeoutS: 60 + 2 * config.taskFlood,
        });
        const all = await timedTasks(db, outcome);
        const flood = all.filter((task) => task.role === 'flood');
        const mine = all.filter((task) => task.role === 'fair');
        // A is queued until its last task started: B's tasks created before then met A's backlog.
        const floodQueuedUntil = Math.max(...flood.map((task) => task.started ?? Infinity));
        const during = mine.filter((task) => task.completed && task.created < floodQueuedUntil);
        const wait = spread(during.map((task) => task.started - task.created));
        const incomplete = all.filter((task) => !task.completed).length;
        Object.assign(fair, {
          rps: null,
          p50: wait.p50,
          p99: wait.p99,
          errors: outcome.errors + outcome.unfinished.length + incomplete,
          wait,
          during: during.length,
          calls: mine.length,
          allB: spread(mine.filter((task) => task.completed).map((task) => task.started - task.created)),
          floodWait: spread(flood.filter((task) => task.completed).map((task) => task.started - task.created)),
          floodDrainMs: Math.max(...flood.map((task) => task.done)) - Math.min(...flood.map((task) => task.created)),
          floodRun: spread(flood.filter((task) => task.completed).map((task) => task.done - task.started)),
        });
        say(
          `  B's created → started while A was queued: p50 ${fmt(wait.p50, 0)} ms, p99 ${fmt(wait.p99, 0)} ms (${during.length} of ${mine.length} calls); ` +
            `A's ${flood.length} drained in ${fmt(fair.floodDrainMs / 1000, 1)} s${unfinishedNote(outcome)}`,
        );
        if (outcome.errors)
          notes.push(`Case 8 fairness errors: ${JSON.stringify(outcome.errorsByKind)}; e.g. ${outcome.errorSamples.join(' | ')}`);
        notes.push(
          `Case 8 fairness (4 workers, a 2 + b 2; the layer's tasks.maxRunningPerWorkspace, 4 by default, lets A take all 4): workspace A created ` +
            `${flood.length} bench_sleep ${config.taskFloodMs} ms tasks at once (run p50 ${fmt(fair.floodRun.p50, 0)} ms), drained ${fmt(fair.floodDrainMs / 1000, 2)} s ` +
            `after the first was created (A's created → started p50 ${fmt(fair.floodWait.p50, 0)}, max ${fmt(fair.floodWait.max, 0)} ms); workspace B then sent ` +
            `${mine.length} bench_sleep ${short.ms} ms tasks, each when the previous completed, ${during.length} of them created while A still had tasks queued: ` +
            `their created → started p50 ${fmt(wait.p50, 0)}, p99 ${fmt(wait.p99, 0)}, max ${fmt(wait.max, 0)} ms (all of B's: p50 ${fmt(fair.allB.p50, 0)}, ` +
            `p99 ${fmt(fair.allB.p99, 0)} ms).`,
        );
      }
    } catch (error) {
      failure(error, ...scenarioRows);
    } finally {
      for (const server of servers) await server.stop();
    }
  }
  const bursts = [1, 2, 4].map((total) => burst[total]).filter((row) => !row.failed && row.rps);
  if (bursts.length)
    notes.push(
      `Case 8 burst drain (${config.taskBurst} × bench_sleep ${short.ms} ms created at once, round-robin on both processes, a fresh pair of processes per worker count` +
        `${reused ? " but 4, the load rows' pair" : ''}; drain = first created → last completed, server clocks): ` +
        bursts
          .map(
            (row) =>
              `${row.split[0] + row.split[1]} worker(s): ${row.completed} in ${fmt(row.drainMs / 1000, 2)} s, ${fmt(row.rps, 1)} tasks/s, workers busy ` +
              `${fmt(row.busy * 100, 0)}%, created → started p50 ${fmt(row.wait.p50, 0)} / p99 ${fmt(row.wait.p99, 0)} ms, creates took ${fmt(row.createSpanMs, 0)} ms, ` +
              `run by a/b ${row.perProcess.join('/')}, at most ${row.maxJobs} job(s) per task`,
          )
          .join('; ') +
        '.',
    );
  rows.push(pickupSame, pickupOther, shortSame, shortOther, burst[1], burst[2], burst[4], fair);
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------
function fmt(value, digits = 1) {
  return value === null || value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits);
}
const find = (c, key) => rows.find((r) => r.case === c && r.key === key);
const measured = (...list) => list.every((r) => r && !r.failed);

/** This run's CPU profiles of some rows (BENCH_CPU_PROF=1), or how to get them. */
function profilesOf(...list) {
  if (!config.cpuProfile) return 'or rerun with BENCH_CPU_PROF=1 and summarize each profile: node bench/profile-summary.mjs <file>';
  const files = list.filter((row) => row?.label).map((row) => relative(root, join(profileDir, `${row.label}.cpuprofile`)));
  return `this run's profiles: ${files.join(', ')} (node bench/profile-summary.mjs <file>)`;
}
/**
 * Where to look when a target is missed, printed beside the MISS: a paired run of the two sides with
 * CPU profiles (ab-compare prints the profile-summary command that splits the self time per request
 * by station and function, one side against the other), and this run's own profiles.
 */
const abProfile = (a, b, extra = '--fresh --rounds 3') =>
  `node bench/ab-compare.mjs --a . --b . --preset ${a} --preset-b ${b} ${extra} --profile`;
const SAME_PROCESS = '--same-process --rounds 1 --alternations 10 --seconds 2';
const LOOK = {
  restRead: () => `${abProfile('invoices-floor-cached', 'invoices-rest')}; ${profilesOf(find(6, 'floor-cached'), find(6, 'rest'))}`,
  mcpRead: () =>
    `${abProfile('invoices-floor-cached', 'invoices-mcp-2026')}; MCP against REST in one process: ` +
    `${abProfile('invoices-rest', 'invoices-mcp-2026', SAME_PROCESS)}; ${profilesOf(find(6, 'floor-cached'), find(6, 'mcp-2026'))}`,
  mcpTail: () =>
    `${abProfile('invoices-floor-cached', 'invoices-mcp-2026')} (p99 per round); GC pauses: BENCH_SERVER_NODE_ARGS=--trace-gc ` +
    `(in the row's server log); ${profilesOf(find(6, 'floor-cached'), find(6, 'mcp-2026'))}`,
  create: () =>
    `${abProfile('create-rest-keyed', 'create-mcp-2026', SAME_PROCESS)}; ${profilesOf(find(4, 'rest-keyed'), find(4, 'mcp-2026'))}`,
};

function targets(writeCheck) {
  const out = [];
  // `look`: where to look when the target is missed (printed beside the MISS, never instead of it).
  const add = (name, goal, value, pass, detail = '', look = undefined) =>
    out.push({
      name,
      goal,
      value,
      result: pass === null ? 'NOT MEASURABLE' : pass ? 'PASS' : 'MISS',
      detail,
      ...(pass === false && look ? { look: look() } : {}),
    });
  const clean = (...list) => list.every((r) => r.errors === 0);
  const verdict = (ok, ...list) => (clean(...list) ? ok : false);

  if (config.cases.has('1')) {
    const rest = find(1, 'rest');
    for (const era of ['2026', '2025']) {
      const mcp = find(1, `mcp-${era}`);
      if (!measured(rest, mcp)) {
        add(`Case 1 (${era} era): MCP / REST throughput`, '≥ 0.95×', '–', null);
        add(`Case 1 (${era} era): MCP p99 / REST p99`, '≤ 1.2×', '–', null);
        continue;
      }
      const tput = mcp.rps / rest.rps;
      const p99 = mcp.p99 / rest.p99;
      add(
        `Case 1 (${era} era): MCP / REST throughput`,
        '≥ 0.95×',
        `${fmt(tput, 2)}×`,
        verdict(tput >= 0.95, rest, mcp),
        clean(rest, mcp) ? '' : 'errors in a run',
      );
      add(`Case 1 (${era} era): MCP p99 / REST p99`, '≤ 1.2×', `${fmt(p99, 2)}×`, verdict(p99 <= 1.2, rest, mcp));
    }
  }
  if (config.cases.has('2')) {
    const [ours, sdk, nest] = [find(2, 'ours'), find(2, 'sdk'), find(2, 'mcp-nest')];
    if (measured(ours, sdk)) {
      const tput = ours.rps / sdk.rps;
      add('Case 2: ours / official SDK v2 throughput', '≥ 3×', `${fmt(tput, 2)}×`, verdict(tput >= 3, ours, sdk));
      add('Case 2: ours p99 vs SDK p99', '≤ 1.0×', `${fmt(ours.p99 / sdk.p99, 2)}×`, verdict(ours.p99 <= sdk.p99, ours, sdk));
    } else add('Case 2: ours / official SDK v2 throughput', '≥ 3×', '–', null, sdk?.failed ?? ours?.failed ?? '');
    if (measured(ours, nest)) {
      add('Case 2: ours / MCP-Nest throughput', '> 1.0×', `${fmt(ours.rps / nest.rps, 2)}×`, verdict(ours.rps > nest.rps, ours, nest));
    } else add('Case 2: ours / MCP-Nest throughput', '> 1.0×', '–', null, nest?.failed ?? '');
  }
  if (config.cases.has('3')) {
    const counts = config.toolCounts;
    const [small, large] = [counts[0], counts.at(-1)].map((n) => find(3, `tools-${n}`));
    if (measured(small, large)) {
      const ratio = large.p50 / small.p50;
      add(
        `Case 3: tools/list p50 at ${counts.at(-1)} / at ${counts[0]} tools`,
        '≤ 2×',
        `${fmt(ratio, 2)}×`,
        verdict(ratio <= 2, small, large),
      );
      for (const middle of counts.slice(1, -1)) {
        const row = find(3, `tools-${middle}`);
        if (!measured(row)) continue;
        // Information, not a target: from `middle` to the last count the first page has the same size (pageSize).
        out.push({
          name: `Case 3 (info): tools/list p50 at ${counts.at(-1)} / at ${middle} tools; first page ${fmt(row.result.bytesPerResponse / 1024, 0)} KiB vs ${fmt(large.result.bytesPerResponse / 1024, 0)} KiB`,
          goal: '≈ 1× (no growth with the count itself)',
          value: `${fmt(large.p50 / row.p50, 2)}×`,
          result: 'INFO',
          detail: '',
        });
      }
    } else add('Case 3: tools/list p50 ratio', '≤ 2×', '–', null);
  }
  if (config.cases.has('4')) {
    const [rest, mcp, keyed] = [find(4, 'rest'), find(4, 'mcp-2026'), find(4, 'rest-keyed')];
    // Like for like: the MCP create (key, audit row, one transaction) against the REST create that
    // also takes an idempotency key, in EVERY round (the two processes of a turn measured one after
    // the other); the median processes' ratio is shown beside it.
    const name = 'Case 4: MCP create / REST create with an idempotency key, throughput, every round';
    if (measured(keyed, mcp)) {
      const rounds = (mcp.processes ?? [mcp]).map((run, i) => run.rps / (keyed.processes ?? [keyed])[i]?.rps);
      const ok = rounds.every((ratio) => ratio >= 0.9);
      add(
        name,
        '≥ 0.9× in each round',
        `${rounds.map((ratio) => `${fmt(ratio, 2)}×`).join(', ')} (rounds ${rounds.length}; median processes ${fmt(mcp.rps / keyed.rps, 2)}×)`,
        verdict(ok && writeCheck?.ok !== false, keyed, mcp),
        writeCheck?.ok === false ? 'write check failed' : '',
        LOOK.create,
      );
    } else add(name, '≥ 0.9× in each round', '–', null);
    const floorMcp = find(4, 'floor-mcp');
    if (measured(mcp, floorMcp) && mcp.serverCpuUsPerRequest && floorMcp.serverCpuUsPerRequest) {
      const ratio = mcp.serverCpuUsPerRequest / floorMcp.serverCpuUsPerRequest;
      add(
        "Case 4: MCP create server CPU per request / its write floor's",
        '≤ 4×',
        `${fmt(ratio, 2)}× (${fmt(mcp.serverCpuUsPerRequest, 0)} vs ${fmt(floorMcp.serverCpuUsPerRequest, 0)} µs)`,
        verdict(ratio <= 4, mcp, floorMcp),
      );
    } else add("Case 4: MCP create server CPU per request / its write floor's", '≤ 4×', '–', null);
    // Context, not targets: the ratio against the REST create without a key (the older target),
    // and the two writes' SQL alone (which a faster layer tends towards).
    if (measured(rest, keyed, mcp))
      notes.push(
        `Case 4 against the REST create without a key: ${fmt(mcp.rps / rest.rps, 2)}× ` +
          `(${fmt(mcp.rps, 0)} vs ${fmt(rest.rps, 0)} req/s; REST create with a key / without: ${fmt(keyed.rps / rest.rps, 2)}×).`,
      );
    const floorRest = find(4, 'floor-rest');
    if (measured(floorRest, floorMcp))
      notes.push(
        `Case 4 floor: the MCP create's SQL / the REST create's SQL on bare node:http + pg: ${fmt(floorMcp.rps / floorRest.rps, 2)}× ` +
          `(${fmt(floorMcp.rps, 0)} vs ${fmt(floorRest.rps, 0)} req/s): what case 4's ratio tends to as the application's shared cost per request falls.`,
      );
  }
  if (config.cases.has('5')) {
    const soak = find(5, 'soak');
    if (measured(soak) && soak.memoryBefore && soak.memoryAfter) {
      // Judged on RSS after a full GC at both ends: the raw RSS swings by tens of MiB with the GC
      // sawtooth, so a single raw sample says more about timing than about growth.
      const mib = (bytes) => bytes / 2 ** 20;
      const [before, after] = [mib(soak.memoryBefore.rss), mib(soak.memoryAfter.rss)];
      const growth = (after - before) / before;
      const heapGrowth = (soak.memoryAfter.heapUsed - soak.memoryBefore.heapUsed) / soak.memoryBefore.heapUsed;
      const sign = (x) => `${x >= 0 ? '+' : ''}${fmt(x * 100, 1)}%`;
      add(
        `Case 5: RSS growth over ${config.soakRequests.toLocaleString('en-US')} requests (after full GC)`,
        '< 10%',
        `${sign(growth)} (${fmt(before, 0)} → ${fmt(after, 0)} MiB; heap used ${fmt(mib(soak.memoryBefore.heapUsed), 1)} → ${fmt(mib(soak.memoryAfter.heapUsed), 1)} MiB, ${sign(heapGrowth)})`,
        verdict(growth < 0.1, soak),
      );
      const samples = soak.rssSamplesMiB ?? [];
      if (samples.length) {
        notes.push(
          `Case 5 raw RSS (no forced GC): ${fmt(soak.rssBeforeMiB, 0)} MiB after the warm-up, ${fmt(soak.rssMiB, 0)} MiB at the end; ` +
            `sampled every second during the soak between ${fmt(Math.min(...samples), 0)} and ${fmt(Math.max(...samples), 0)} MiB (GC sawtooth).`,
        );
      }
    } else add('Case 5: RSS growth', '< 10%', '–', null);
  }
  if (config.cases.has('6')) {
    // A floor whose answer is not the route's bounds nothing: its targets are not measurable.
    const usable = (floor) => (floor?.differs ? { ...floor, failed: `the floor's answer differs: ${floor.differs}` } : floor);
    const floor = usable(find(6, 'floor'));
    // The MCP read against the first floor (the SQL of then in 3 statements), and the REST read
    // against it (its older, looser bounds).
    for (const [key, name, least, most] of [
      ['rest', 'REST read', 0.5, 2],
      ['mcp-2026', 'MCP read (2026 era)', 0.75, 1.5],
    ]) {
      const row = find(6, key);
      if (!measured(row, floor)) {
        add(`Case 6: ${name} / floor throughput`, `≥ ${least}×`, '–', null, floor?.failed ?? row?.failed ?? '');
        add(`Case 6: ${name} p99 / floor p99`, `≤ ${most}×`, '–', null);
        continue;
      }
      const tput = row.rps / floor.rps;
      const p99 = row.p99 / floor.p99;
      add(
        `Case 6: ${name} / floor throughput`,
        `≥ ${least}×`,
        `${fmt(tput, 2)}×`,
        verdict(tput >= least, row, floor),
        clean(row, floor) ? '' : 'errors in a run',
      );
      add(
        `Case 6: ${name} p99 / floor p99`,
        `≤ ${most}×`,
        `${fmt(p99, 2)}× (${fmt(row.p99, 1)} vs ${fmt(floor.p99, 1)} ms)`,
        verdict(p99 <= most, row, floor),
      );
    }
    // The same-guarantee floor: the application's guarantees (token verified, cached ≤ 1 s, the
    // workspace, scope and role) and its tricks (one statement, prepared), nothing else.
    const cached = usable(find(6, 'floor-cached'));
    const [rest, mcp] = [find(6, 'rest'), find(6, 'mcp-2026')];
    for (const [row, name, measure, goal, pass, look] of [
      [rest, 'REST read / same-guarantee floor throughput', (r) => r.rps / cached.rps, '≥ 0.7×', (x) => x >= 0.7, LOOK.restRead],
      [mcp, 'MCP read (2026 era) / same-guarantee floor throughput', (r) => r.rps / cached.rps, '≥ 0.6×', (x) => x >= 0.6, LOOK.mcpRead],
      [mcp, 'MCP read (2026 era) p99 / same-guarantee floor p99', (r) => r.p99 / cached.p99, '≤ 1.5×', (x) => x <= 1.5, LOOK.mcpTail],
    ]) {
      if (!measured(row, cached)) {
        add(`Case 6: ${name}`, goal, '–', null, cached?.failed ?? row?.failed ?? '');
        continue;
      }
      const ratio = measure(row);
      const detail = name.includes('p99')
        ? `${fmt(row.p99, 1)} vs ${fmt(cached.p99, 1)} ms`
        : `${fmt(row.rps, 0)} vs ${fmt(cached.rps, 0)} req/s; server CPU ${fmt(row.serverCpuUsPerRequest, 0)} vs ${fmt(cached.serverCpuUsPerRequest, 0)} µs/req`;
      add(
        `Case 6: ${name}`,
        goal,
        `${fmt(ratio, 2)}× (${detail})`,
        verdict(pass(ratio), row, cached),
        clean(row, cached) ? '' : 'errors in a run',
        look,
      );
    }
  }
  if (config.cases.has('8') && config.taskPickups) {
    // The queue's figures (case8Queue); the load rows of case 8 have no target.
    const pairs = [
      ['idle pickup', 'created → started (mcp_tasks)', find(8, 'pickup-same'), find(8, 'pickup-other')],
      [
        `short task (bench_sleep ${config.taskShortMs} ms) on idle workers`,
        'created → completed',
        find(8, 'short-e2e-same'),
        find(8, 'short-e2e-other'),
      ],
    ];
    const goals = [
      [0, 'p50', 20, '≤ 20 ms'],
      [0, 'p99', 100, '≤ 100 ms'],
      [1, 'p50', config.taskShortMs + 50, `≤ run + 50 ms (${config.taskShortMs + 50} ms)`],
    ];
    for (const [which, p, goal, goalText] of goals) {
      const [what, span, same, other] = pairs[which];
      const name = `Case 8: ${what} ${p}, ${span}, created on the worker's process / on the other`;
      if (measured(same, other) && same.count && other.count) {
        add(
          name,
          goalText,
          `${fmt(same[p], 1)} / ${fmt(other[p], 1)} ms${which === 1 ? ` (runs p50 ${fmt(same.run.p50, 1)} / ${fmt(other.run.p50, 1)} ms)` : ''}`,
          verdict(same[p] <= goal && other[p] <= goal, same, other),
          clean(same, other) ? '' : 'errors or unfinished tasks',
        );
      } else add(name, goalText, '–', null, same?.failed ?? '');
    }
    const one = find(8, 'burst-1');
    for (const total of [2, 4]) {
      const row = find(8, `burst-${total}`);
      const goal = 0.8 * total;
      const name = `Case 8: burst of ${config.taskBurst}, tasks/s on ${total} workers / on 1`;
      if (measured(one, row) && one.rps && row.rps) {
        const ratio = row.rps / one.rps;
        add(
          name,
          `≥ ${fmt(goal, 1)}× (0.8 × ${total})`,
          `${fmt(ratio, 2)}× (${fmt(row.rps, 1)} vs ${fmt(one.rps, 1)} tasks/s)`,
          verdict(ratio >= goal, one, row),
          clean(one, row) ? '' : 'errors or unfinished tasks',
        );
      } else add(name, `≥ ${fmt(goal, 1)}×`, '–', null, row?.failed ?? one?.failed ?? '');
    }
    if (measured(one) && one.rps)
      // Information, not a target: the scaling ratios above say nothing of how busy one worker was.
      out.push({
        name: `Case 8 (info): burst tasks/s on 1 worker / its ideal (1000 / ${config.taskShortMs} ms run)`,
        goal: '≈ 1× (the worker always busy)',
        value: `${fmt(one.rps / (1000 / config.taskShortMs), 2)}× (${fmt(one.rps, 1)} vs ${fmt(1000 / config.taskShortMs, 1)} tasks/s)`,
        result: 'INFO',
        detail: '',
      });
    const fair = find(8, 'fair-b');
    const fairGoal = config.taskFloodMs + 100;
    const fairName = `Case 8: fairness, workspace B's wait p99 (created → started) while A's flood is queued, 4 workers`;
    if (measured(fair) && fair.during) {
      add(
        fairName,
        `≤ a flood task's run + 100 ms (${fairGoal} ms)`,
        `${fmt(fair.p99, 0)} ms (${fair.during} of B's ${fair.calls} calls met A's backlog)`,
        verdict(fair.p99 <= fairGoal, fair),
        clean(fair) ? '' : 'errors or unfinished tasks',
      );
    } else add(fairName, `≤ ${fairGoal} ms`, '–', null, fair?.failed ?? (fair ? "no call of B met A's backlog" : ''));
  }
  return out;
}

function report(targetList) {
  const lines = [];
  lines.push(
    `### npm run bench${smoke ? ':smoke' : ''}: ${config.connections} connections, ${config.warmupS} s warm-up + ${config.durationS} s per case, soak ${config.soakRequests.toLocaleString('en-US')} requests`,
  );
  lines.push('');
  lines.push(
    `Machine: ${machine.nproc} cores, ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform}; commit ${machine.commit}`,
  );
  lines.push('');
  lines.push(`CPU pinning (BENCH_PIN): ${pinning.summary ?? 'off (the scheduler places the server, the load generator and PostgreSQL)'}`);
  lines.push('');
  lines.push('| case | variant | era | req/s | p50 ms | p99 ms | errors | RSS MiB | server CPU µs/req | other load (cores) |');
  lines.push('|---|---|---|--:|--:|--:|--:|--:|--:|--:|');
  for (const r of [...rows].sort((a, b) => a.case - b.case)) {
    if (r.failed) {
      lines.push(
        `| ${r.case} | ${r.variant} | ${r.era ?? 'REST'} | not measurable: ${r.failed.split('\n')[0].replaceAll('|', '\\|').slice(0, 160)} | | | | | | |`,
      );
      continue;
    }
    const rss =
      r.rssText ??
      (r.memoryBefore && r.memoryAfter
        ? `${fmt(r.memoryBefore.rss / 2 ** 20, 0)} → ${fmt(r.memoryAfter.rss / 2 ** 20, 0)} (after GC)`
        : fmt(r.rssMiB, 0));
    lines.push(
      `| ${r.case} | ${r.variant} | ${r.era ?? 'REST'} | ${fmt(r.rps, 0)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${r.errors} | ${rss} | ` +
        `${fmt(r.serverCpuUsPerRequest, 0)} | ${fmt(r.cores?.other, 2)} |`,
    );
  }
  const noisy = rows.filter((r) => r.cores && r.cores.other > 0.1);
  if (noisy.length) {
    lines.push('');
    lines.push(
      `**Warning:** other processes used CPU during ${noisy.map((r) => `case ${r.case} ${r.key} (${fmt(r.cores.other, 2)} cores)`).join(', ')}: ` +
        'those figures (and the ratios that use them) are not reliable; rerun on a quiet machine (BENCH_WAIT_QUIET=600 waits for one).',
    );
  }
  // The load rows of case 8 have no target (its queue figures do): a run of it with BENCH_TASK_PICKUPS=0 has no target table.
  if (targetList.length) {
    lines.push('');
    lines.push('| target | goal | measured | result |');
    lines.push('|---|---|---|---|');
    for (const t of targetList)
      lines.push(
        `| ${t.name} | ${t.goal} | ${t.value}${t.detail ? ` (${t.detail})` : ''} | ${t.result}${t.look ? ` — where to look: ${t.look}` : ''} |`,
      );
  }
  if (notes.length) {
    lines.push('');
    for (const note of notes) lines.push(`- ${note}`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Run
// ---------------------------------------------------------------------------------------------
let exitCode = 0;
try {
  say(
    `${config.mode} run: ${config.connections} connections, warm-up ${config.warmupS} s, ${config.durationS} s per case, soak ${config.soakRequests} requests, cases ${[...config.cases].join(',')}`,
  );
  build();
  pinning.apply();
  if (pinning.summary) say(`pinned: ${pinning.summary}`);
  const needsDb = ['1', '4', '6', '8'].some((c) => config.cases.has(c));
  const db = needsDb ? await createDatabase() : undefined;
  let writeCheck;
  if (config.cases.has('1')) await case1(db);
  // Case 6 right after case 1: its application rows can reuse case 1's server in the smoke run.
  if (config.cases.has('6')) await case6(db);
  if (config.cases.has('2')) await case2();
  if (config.cases.has('3')) await case3();
  if (config.cases.has('4')) writeCheck = await case4(db);
  if (config.cases.has('7')) await case7();
  if (config.cases.has('8')) await case8(db);
  if (config.cases.has('5')) await case5();
  await releaseKept();
  const targetList = targets(writeCheck);
  const markdown = report(targetList);
  console.log(`\n${markdown}\n`);
  if (config.cases.has('2')) console.log(`Case 2 era: ${config.peerEra} for all three servers (BENCH_PEER_ERA=2025 for the 2025 era).`);
  const totalS = (performance.now() - started) / 1000;
  writeFileSync(join(runDir, 'results.md'), `${markdown}\n`);
  writeFileSync(
    join(runDir, 'results.json'),
    JSON.stringify(
      {
        config: { ...config, cases: [...config.cases], pinning: pinning.summary ?? 'off' },
        machine,
        startedAt: stamp,
        totalSeconds: totalS,
        rows,
        targets: targetList,
        writeCheck,
        notes,
      },
      null,
      2,
    ),
  );
  if (config.cpuProfile) {
    const profiles = existsSync(profileDir) ? readdirSync(profileDir) : [];
    console.log(`CPU profiles: ${profiles.length} in ${relative(root, profileDir)}/ (summarize: node bench/profile-summary.mjs <file>)`);
  }
  console.log(`Raw figures: ${relative(root, join(runDir, 'results.json'))}`);
  say(`done in ${totalS.toFixed(0)} s`);
  if (ownFailures) exitCode = 1;
  if (process.env.BENCH_STRICT === '1' && targetList.some((t) => t.result === 'MISS' || t.result === 'NOT MEASURABLE')) exitCode = 1;
} catch (error) {
  console.error(`[bench] failed: ${error.stack ?? error}`);
  exitCode = 1;
} finally {
  for (const child of children) child.kill('SIGKILL');
  pinning.restore();
  await cleanupDatabase().catch((error) => console.error(`[bench] could not drop the bench database: ${error.message}`));
}
process.exit(exitCode);
