#!/usr/bin/env node
// Paired A/B comparison of two builds of the same bench server, for judging a product change on a
// machine whose speed drifts (shared or virtual CPUs): both servers stay up, and short load bursts
// alternate A, B, B, A, … so that drift hits both alike; the verdict is the median of the paired
// ratios of server CPU per request and of throughput.
//
//   node bench/ab-compare.mjs --a <checkout A> --b <checkout B> --preset <name> [--preset-b <name>] [--rounds 8] [--seconds 3] [--connections 32]
//     [--node-args-a "<flags>"] [--node-args-b "<flags>"] [--fresh] [--alternations K] [--warmup S] [--pin]
//     [--same-process] [--profile] [--db-per-side]
//
// --fresh starts a new pair of server processes for every round (warmed up each time). Two
// processes of the same build can differ by 10–25% in CPU per request for their whole life (JIT
// and memory-layout luck; an A/A run of one build against itself read 1.25× here), which more
// rounds against the same two processes never averages out; fresh processes per round do.
//
// --alternations K: each round measures K bursts per side, alternating A B, B A, … (each --seconds
// long), and compares their sums. The CPU of a VM can run a whole process ~2× slower for seconds
// at a time (every function alike in a profile); short alternating bursts spread such spells over
// both sides. E.g. --fresh --rounds 6 --alternations 6 --seconds 1 --warmup 4 (--warmup: seconds of
// each warm-up burst, --seconds by default).
//
// --pin: the servers on CPU 0, the load generator and a local PostgreSQL on the others, as
// BENCH_PIN=1 does for npm run bench (bench/cpu-pinning.mjs).
//
// --preset-b runs another request against B (e.g. A: REST route on the current code, B: the same
// handler over MCP with a change applied), which gives a change's effect on an MCP/REST ratio.
// --node-args-a / --node-args-b start that side's server with extra Node.js flags (e.g. the same
// checkout twice, B with `--max-semi-space-size=64`: a runtime setting's effect).
// --same-process: one server process (checkout A) serves both sides, for two presets of the same
// server (e.g. --preset summary-rest --preset-b summary-mcp-2026): the ratio of one build's REST
// and MCP paths, without the process-to-process spread. --profile starts the server(s) with
// --cpu-prof and writes, beside each profile, the times of every measured burst; `node
// bench/profile-summary.mjs <profile> --phases <phases.json>` then splits one process's profile into
// the two sides, per request (with --same-process: where an MCP call spends what a REST request
// does not).
// Each checkout must have been built with `npm run build -w @nest-mcp/core` (the layer's dist/, which
// the compiled servers import) and compiled with `tsc -p bench/tsconfig.json` (its .bench-dist/), e.g. a
// copy of the repository with the change applied. Presets: echo, tools-10, tools-500,
// summary-rest, summary-mcp-2026, summary-mcp-2025, invoices-rest, invoices-mcp-2026,
// invoices-mcp-2025 (the invoice list of case 6: GET /v1/invoices?limit=10 and
// billing_invoices_search {limit:10}), invoices-floor and invoices-floor-cached (the same list on case
// 6's floors, bench/servers/floor.ts: the SQL of then in 3 statements, and the same-guarantee floor),
// create-rest, create-rest-keyed, create-mcp-2026, create-rest-floor and create-mcp-floor (case 4's
// two writes on bare node:http + pg, bench/servers/write-floor.ts).
// Two presets of different servers (a floor against the application: --preset invoices-floor-cached
// --preset-b invoices-rest) run as two processes; with --profile, ab-compare then prints the
// profile-summary command that compares the two (self time per request, side a's process against
// side b's, by station and function). A floor needs the billing app's seed: it is run once first.
// Database presets create, migrate and drop their own database (DATABASE_URL's server, default
// postgresql://postgres@127.0.0.1:5432/postgres) and use it for both servers; with --db-per-side,
// one database per side, each migrated by its own checkout (for a change that renames tables).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuPinning } from './cpu-pinning.mjs';
import { ERA_2025, ERA_2026, mcpBody, mcpHeaders } from './requests.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const dirA = resolve(option('a', ''));
const dirB = resolve(option('b', ''));
const presetName = option('preset', 'echo');
const presetNameB = option('preset-b', presetName);
const rounds = Number(option('rounds', 8));
const seconds = Number(option('seconds', 3));
const connections = Number(option('connections', 32));
const fresh = args.includes('--fresh');
const alternations = Number(option('alternations', 1));
const warmup = Number(option('warmup', seconds));
const sameProcess = args.includes('--same-process');
const profiling = args.includes('--profile');
const nodeArgs = (side) => option(`node-args-${side}`, '').split(/\s+/).filter(Boolean);
const serverUrl = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const pinning = cpuPinning({ enabled: args.includes('--pin'), databaseUrl: serverUrl, say: (line) => console.log(line) });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // PostgreSQL's affinity is not ours to leave changed; the servers die with their pids.
    pinning.restore();
    for (const child of children) child.kill('SIGKILL');
    process.exit(130);
  });
}

const auth = (s) => ({ authorization: `Bearer ${s.token}` });
const summary = (era) => ({
  entry: 'billing-app',
  db: true,
  spec: (s, email) => ({
    url: `${s.base}/mcp`,
    method: 'POST',
    headers: mcpHeaders(era, 'tools/call', 'billing_customer_summary', auth(s)),
    body: mcpBody(era, 'tools/call', { name: 'billing_customer_summary', arguments: { email } }),
    verify: 'mcp-result',
  }),
});
const invoices = (era) => ({
  entry: 'billing-app',
  db: true,
  spec: (s) => ({
    url: `${s.base}/mcp`,
    method: 'POST',
    headers: mcpHeaders(era, 'tools/call', 'billing_invoices_search', auth(s)),
    body: mcpBody(era, 'tools/call', { name: 'billing_invoices_search', arguments: { limit: 10 } }),
    verify: 'mcp-invoices',
  }),
});
const PRESETS = {
  echo: {
    entry: 'echo-ours',
    spec: (s) => ({
      url: `${s.base}/mcp`,
      method: 'POST',
      headers: mcpHeaders(ERA_2026, 'tools/call', 'echo'),
      body: mcpBody(ERA_2026, 'tools/call', { name: 'echo', arguments: { text: 'hello, bench' } }),
      verify: 'mcp-result',
    }),
  },
  ...Object.fromEntries(
    [10, 500].map((n) => [
      `tools-${n}`,
      {
        entry: 'tools-scale',
        env: { TOOL_COUNT: String(n) },
        spec: (s) => ({
          url: `${s.base}/mcp`,
          method: 'POST',
          headers: mcpHeaders(ERA_2026, 'tools/list'),
          body: mcpBody(ERA_2026, 'tools/list'),
          verify: 'tools-list',
        }),
      },
    ]),
  ),
  'summary-rest': {
    entry: 'billing-app',
    db: true,
    spec: (s, email) => ({
      url: `${s.base}/v1/customers/summary?email=${encodeURIComponent(email)}`,
      method: 'GET',
      headers: auth(s),
      verify: 'rest-summary',
    }),
  },
  'summary-mcp-2026': summary(ERA_2026),
  'summary-mcp-2025': summary(ERA_2025),
  'invoices-rest': {
    entry: 'billing-app',
    db: true,
    spec: (s) => ({ url: `${s.base}/v1/invoices?limit=10`, method: 'GET', headers: auth(s), verify: 'rest-invoices' }),
  },
  'invoices-mcp-2026': invoices(ERA_2026),
  'invoices-mcp-2025': invoices(ERA_2025),
  'create-rest': {
    entry: 'billing-app',
    db: true,
    spec: (s) => ({
      url: `${s.base}/v1/customers`,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth(s) },
      bodyFactory: 'rest-create',
      verify: 'rest-created',
    }),
  },
  'create-mcp-2026': {
    entry: 'billing-app',
    db: true,
    spec: (s) => ({
      url: `${s.base}/mcp`,
      method: 'POST',
      headers: mcpHeaders(ERA_2026, 'tools/call', 'billing_customer_create', auth(s)),
      bodyFactory: 'mcp-create-2026',
      verify: 'mcp-result',
    }),
  },
};
PRESETS['create-rest-keyed'] = {
  ...PRESETS['create-rest'],
  spec: (s) => ({ ...PRESETS['create-rest'].spec(s), bodyFactory: 'rest-create-keyed' }),
};
// Case 4's floor (bench/servers/write-floor.ts): the two writes' SQL on bare node:http + pg.
PRESETS['create-rest-floor'] = { ...PRESETS['create-rest'], entry: 'write-floor' };
PRESETS['create-mcp-floor'] = { ...PRESETS['create-mcp-2026'], entry: 'write-floor' };
// Case 6's floors (bench/servers/floor.ts): the invoice list on bare node:http + pg, in the
// database the billing app seeded (`seeded`: ab-compare runs the app once first).
for (const [name, mode] of [
  ['invoices-floor', 'three-statements'],
  ['invoices-floor-cached', 'same-guarantee'],
]) {
  PRESETS[name] = { ...PRESETS['invoices-rest'], entry: 'floor', env: { FLOOR_MODE: mode }, seeded: true };
}
const preset = PRESETS[presetName];
const presetB = PRESETS[presetNameB];
if (!preset || !presetB || !option('a') || !option('b')) {
  console.error(
    `usage: node bench/ab-compare.mjs --a <dir> --b <dir> --preset <${Object.keys(PRESETS).join('|')}> [--rounds N] [--seconds S]`,
  );
  process.exit(2);
}

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
const cpuMs = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK;
};
const work = mkdtempSync(join(os.tmpdir(), 'mcp-ab-'));
const children = [];
let dropDb = async () => undefined;
async function admin(url, fn) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Where `--profile` writes each server's profile and the times of its measured bursts. */
const profileDir = join(work, 'profiles');
/** Measured bursts per server pid: [side, start µs, end µs] on the monotonic clock of V8's profiles, and requests per side. */
const phases = new Map();
/** The pid pairs measured ([a, b], one per pair of processes): with --profile, the profiles that compare. */
const pids = [];
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

async function start(dir, env, which = preset, flags = []) {
  const profile = profiling ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=250'] : [];
  const [command, ...argv] = pinning.server([
    process.execPath,
    ...profile,
    ...flags,
    join(dir, '.bench-dist', 'bench', 'servers', `${which.entry}.js`),
  ]);
  const child = spawn(command, argv, {
    env: { ...process.env, ...which.env, ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const ready = await new Promise((ok, fail) => {
    let buffer = '';
    child.stdout.on('data', (d) => {
      buffer += d;
      const m = /^BENCH_READY (.*)$/m.exec(buffer);
      if (m) ok(JSON.parse(m[1]));
    });
    child.once('exit', (code) => fail(new Error(`${dir}: server exited with ${code}`)));
  });
  return { ...ready, pid: child.pid, base: `http://127.0.0.1:${ready.port}` };
}

async function burst(server, spec, label, duration = seconds, side = undefined) {
  const startUs = monotonicUs();
  const configPath = join(work, `${label}.json`);
  const resultPath = join(work, `${label}.result.json`);
  writeFileSync(configPath, JSON.stringify({ ...spec, connections, duration }));
  const c0 = cpuMs(server.pid);
  const [command, ...argv] = pinning.others([process.execPath, join(here, 'load-generator.mjs'), configPath, resultPath]);
  const code = await new Promise((ok) => spawn(command, argv, { stdio: 'inherit' }).once('exit', ok));
  if (code !== 0) throw new Error(`load generator failed (${code})`);
  const r = JSON.parse(readFileSync(resultPath, 'utf8'));
  const errors = r.errors + r.non2xx + r.mismatches;
  const cpu = cpuMs(server.pid) - c0;
  if (side) {
    const record = phases.get(server.pid) ?? { phases: [], requests: {} };
    record.phases.push([side, startUs, monotonicUs()]);
    record.requests[side] = (record.requests[side] ?? 0) + r.completed;
    phases.set(server.pid, record);
  }
  return { rps: r.rps, p50: r.latencyMs.p50, p99: r.latencyMs.p99, errors, completed: r.completed, cpuMs: cpu };
}

/** Bursts of one side within a round, as one: requests and CPU summed, latencies their median. */
function combined(bursts) {
  const completed = bursts.reduce((sum, b) => sum + b.completed, 0);
  const cpu = bursts.reduce((sum, b) => sum + b.cpuMs, 0);
  return {
    rps: bursts.reduce((sum, b) => sum + b.rps, 0) / bursts.length,
    p50: median(bursts.map((b) => b.p50)),
    p99: median(bursts.map((b) => b.p99)),
    cpuUs: (cpu * 1000) / completed,
    errors: bursts.reduce((sum, b) => sum + b.errors, 0),
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Stops every server started so far (SIGTERM, SIGKILL after 6 s). */
async function stopServers() {
  const running = children.splice(0);
  await Promise.all(
    running.map(
      (child) =>
        new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const timer = setTimeout(() => child.kill('SIGKILL'), 6_000);
          child.once('exit', () => {
            clearTimeout(timer);
            done();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** The app's Prisma wrapper in a checkout: apps/billing/scripts/ since the workspace layout, scripts/ before it. */
function prismaScript(dir) {
  const app = join(dir, 'apps', 'billing', 'scripts', 'prisma.mjs');
  return existsSync(app) ? app : join(dir, 'scripts', 'prisma.mjs');
}

try {
  let env = {};
  let envB;
  let email;
  if (preset.db || presetB.db) {
    // Checkout B's migrations (a change adds to A's): both servers run on the newer schema. With
    // --db-per-side (a change that renames or moves tables), each side runs on a database of its
    // own, migrated by its own checkout.
    const database = async (suffix, dir) => {
      const name = `mcp_ab_${process.pid}${suffix}`;
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      await admin(serverUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
      const drop = dropDb;
      dropDb = async () => {
        await drop?.();
        await admin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      };
      const migrate = spawnSync(process.execPath, [prismaScript(dir), 'migrate', 'deploy'], {
        env: { ...process.env, DATABASE_URL: url.toString() },
        encoding: 'utf8',
      });
      if (migrate.status !== 0) throw new Error(`migrate failed: ${migrate.stdout}${migrate.stderr}`);
      return { DATABASE_URL: url.toString() };
    };
    env = await database('', args.includes('--db-per-side') ? dirA : dirB);
    if (args.includes('--db-per-side')) envB = await database('_b', dirB);
  }
  pinning.apply();
  if (pinning.summary) console.log(`pinned: ${pinning.summary}`);
  if (sameProcess && preset.entry !== presetB.entry) throw new Error('--same-process needs two presets of the same server');
  if (preset.seeded || presetB.seeded) {
    // The demo data a floor reads: the billing app seeds it on boot (checkout B's, on each side's database).
    for (const [dir, sideEnv] of [[dirB, env], ...(envB ? [[dirB, envB]] : [])]) {
      await start(dir, sideEnv, PRESETS['invoices-rest']);
      await stopServers();
    }
  }
  const startPair = async () => {
    const a = await start(dirA, env, preset, nodeArgs('a'));
    return [a, sameProcess ? a : await start(dirB, envB ?? env, presetB, nodeArgs('b'))];
  };
  let [a, b] = await startPair();
  if (preset.db) {
    email = await admin(env.DATABASE_URL, async (c) => {
      const { rows } = await c.query(
        `SELECT c.email FROM customers c JOIN invoices i ON i.customer_id = c.id WHERE c.email LIKE 'billing@%' GROUP BY c.email ORDER BY count(*) DESC, c.email LIMIT 1`,
      );
      return rows[0]?.email; // none in a database only the write floor used (its presets need none)
    });
  }
  const pairs = [];
  for (let i = 0; i < rounds; i++) {
    if (fresh && i > 0) {
      await stopServers();
      [a, b] = await startPair();
    }
    if (!pids.some(([pa, pb]) => pa === a.pid && pb === b.pid)) pids.push([a.pid, b.pid]);
    const specA = preset.spec(a, email);
    const specB = presetB.spec(b, email);
    // Warm-up both (once, or every round with --fresh), then A B, B A, A B …
    if (fresh || i === 0) {
      await burst(a, specA, `warm-a-${i}`, warmup);
      await burst(b, specB, `warm-b-${i}`, warmup);
    }
    const bursts = { a: [], b: [] };
    for (let k = 0; k < alternations; k++) {
      const order = (i + k) % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
      for (const which of order)
        bursts[which].push(await burst(which === 'a' ? a : b, which === 'a' ? specA : specB, `${which}-${i}-${k}`, seconds, which));
    }
    const got = { a: combined(bursts.a), b: combined(bursts.b) };
    pairs.push(got);
    console.log(
      `round ${i + 1}: A ${got.a.rps.toFixed(0)} req/s ${got.a.cpuUs.toFixed(0)} µs/req p50 ${got.a.p50.toFixed(1)} ms | ` +
        `B ${got.b.rps.toFixed(0)} req/s ${got.b.cpuUs.toFixed(0)} µs/req p50 ${got.b.p50.toFixed(1)} ms${got.a.errors || got.b.errors ? ` | errors A ${got.a.errors} B ${got.b.errors}` : ''}`,
    );
  }
  const cpu = median(pairs.map((p) => p.b.cpuUs / p.a.cpuUs));
  const rps = median(pairs.map((p) => p.b.rps / p.a.rps));
  const p50 = median(pairs.map((p) => p.b.p50 / p.a.p50));
  const p99 = median(pairs.map((p) => p.b.p99 / p.a.p99));
  console.log(
    `\n${presetName === presetNameB ? presetName : `A ${presetName}, B ${presetNameB}`}: B/A median of ${rounds} paired rounds: server CPU per request ${cpu.toFixed(3)}×, throughput ${rps.toFixed(3)}×, p50 ${p50.toFixed(3)}×, p99 ${p99.toFixed(3)}× ` +
      `(A ${median(pairs.map((p) => p.a.cpuUs)).toFixed(0)} µs/req, B ${median(pairs.map((p) => p.b.cpuUs)).toFixed(0)} µs/req)`,
  );
} finally {
  // Servers first (they still hold pool connections), then their database.
  await stopServers();
  if (profiling) reportProfiles();
  pinning.restore();
  await dropDb().catch(() => undefined);
}

/**
 * Each server's profile (written as it exits) with the times of its measured bursts beside it, and,
 * for two processes (two builds, or a floor against the application), the command that compares
 * them: side a's self time per request in A's profile against side b's in B's.
 */
function reportProfiles() {
  const files = new Map();
  for (const [pid, record] of phases) {
    const profile = readdirSync(profileDir).find((name) => name.includes(`.${pid}.`) && name.endsWith('.cpuprofile'));
    if (!profile) continue;
    const phasesFile = join(profileDir, `${pid}.phases.json`);
    writeFileSync(phasesFile, JSON.stringify(record));
    files.set(pid, { profile: join(profileDir, profile), phasesFile });
    console.log(`profile of pid ${pid}: node bench/profile-summary.mjs ${join(profileDir, profile)} --phases ${phasesFile}`);
  }
  for (const [pa, pb] of pids) {
    const [a, b] = [files.get(pa), files.get(pb)];
    if (pa === pb || !a || !b) continue;
    console.log(
      `A against B (pids ${pa}, ${pb}): node bench/profile-summary.mjs ${a.profile} --phases ${a.phasesFile} --b ${b.profile} --phases-b ${b.phasesFile}`,
    );
  }
}
