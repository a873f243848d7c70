#!/usr/bin/env node
// The load generator of case 8 (tasks) of `npm run bench`, in a process of its own. autocannon
// sends one request after another; a task needs a client that creates it, then polls it until it
// is finished, so this is a small closed-loop client of its own (node:http, keep-alive).
//
//   node bench/task-load.mjs <config.json> <result.json>
//
// config: {
//   servers: ["http://127.0.0.1:port", ...],  // requests of each client go round-robin over them
//   tokens: ["…", ...],                         // client i uses tokens[i % tokens.length] (one per workspace)
//   tool, arguments,                            // the tools/call
//   mode: "task" | "inline"                     // the load rows: with the tasks extension declared, or without it
//       | "pickup" | "burst" | "fairness",      // the queue's figures (below)
//   connections, warmupS, durationS,            // task / inline: clients, then the two phases (one run, no pause)
//   pollMs,                                     // task mode: tasks/get of one task every pollMs
//   drainS,                                     // task mode: after the run, how long to wait for unfinished tasks
//   databaseUrl, watchMs, timeoutS,             // pickup / burst / fairness: where to watch mcp_tasks, how often, how long at most
//   count, gapMs: [min, max],                   // pickup: tasks, one at a time; pause after each (uniform in [min, max])
//   count,                                      // burst: tasks created at once
//   flood: { token, arguments, count },         // fairness: workspace A's tasks, created at once
//   fair: { token, arguments, count },          // fairness: then workspace B's, one at a time
// }
//
// task mode: each client loops create (tools/call, must answer a CreateTaskResult) → tasks/get
// every pollMs until the task is finished → next task. Measured, over the measured phase: creates
// sent in it (latency of the CreateTaskResult), tasks seen completed in it (tasks/s; latency from
// the create being sent to the tasks/get that saw `completed`), the tasks/get answers, and the
// server's own times of each task (createdAt → lastUpdatedAt of the completed task, which the
// completion sets inside the work's transaction). After the run no client creates anything; the
// tasks still unfinished are polled until they finish (drainS), so the database is quiet for the
// next row and every task id the load got is accounted for.
// inline mode: each client loops the same tools/call without the extension: answered in the request.
//
// The queue's modes create tasks (tokens[0] unless said) and learn that they finished from
// mcp_tasks itself (one SELECT every watchMs on a connection of their own), not with tasks/get: no
// client poll loads the servers, whose workers are what is measured. The runner reads the times of
// every task from the database afterwards (server clocks); this process records when it sent each
// create and got its answer (epoch ms, this machine's clock).
// pickup: `count` tasks one after another, created alternately on each server; each waits for the
//   previous to finish, then a pause of gapMs (so every task meets idle workers).
// burst: `count` tasks created at once (all requests in flight together, round-robin over the
//   servers), then waits until all finished.
// fairness: flood.count tasks of workspace A created at once; once all are answered, fair.count
//   tasks of workspace B one at a time (each created when the previous finished, alternately on
//   each server); then waits for A's to finish.
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import { ERA_2026, mcpBody, mcpHeaders, TASKS_CAPABILITIES } from './requests.mjs';

const [configPath, resultPath] = process.argv.slice(2);
if (!configPath || !resultPath) {
  console.error('usage: node bench/task-load.mjs <config.json> <result.json>');
  process.exit(2);
}
const config = JSON.parse(readFileSync(configPath, 'utf8'));
const taskMode = config.mode === 'task';
const queueMode = ['pickup', 'burst', 'fairness'].includes(config.mode);
if (!taskMode && !queueMode && config.mode !== 'inline') {
  console.error(`task-load: unknown mode ${config.mode}`);
  process.exit(2);
}
// The queue's modes send every create of a burst at once: no socket limit there.
const agents = config.servers.map(() => new http.Agent({ keepAlive: true, maxSockets: queueMode ? Infinity : config.connections }));

/** One POST of a JSON-RPC body; resolves with status, parsed body (or undefined) and ms. */
function post(serverIndex, headers, body) {
  const url = new URL('/mcp', config.servers[serverIndex]);
  const t = performance.now();
  return new Promise((resolve) => {
    const request = http.request(
      url,
      { method: 'POST', agent: agents[serverIndex], headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const ms = performance.now() - t;
          const text = Buffer.concat(chunks).toString('utf8');
          let json;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode, json, text, ms });
        });
        response.on('error', (error) => resolve({ status: 0, text: String(error), ms: performance.now() - t }));
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('timeout after 30 s')));
    request.on('error', (error) => resolve({ status: 0, text: String(error), ms: performance.now() - t }));
    request.end(body);
  });
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const bearer = (client) => ({ authorization: `Bearer ${config.tokens[client % config.tokens.length]}` });
const capabilities = taskMode ? TASKS_CAPABILITIES : undefined;
const callBody = (id) => mcpBody(ERA_2026, 'tools/call', { name: config.tool, arguments: config.arguments }, id, capabilities);

// Phases: warm-up [start, t0), measured [t0, t1), then drain (task mode). The runner is told when
// the measured phase starts and ends (a line on stdout), to read CPU times over it alone.
const start = performance.now();
const t0 = start + config.warmupS * 1000;
const t1 = t0 + config.durationS * 1000;
const inWindow = (t) => t >= t0 && t < t1;
if (!queueMode) {
  setTimeout(() => process.stdout.write('PHASE measured\n'), t0 - performance.now());
  setTimeout(() => process.stdout.write('PHASE end\n'), t1 - performance.now());
}

const record = {
  createMs: [],
  completeMs: [],
  serverMs: [],
  pollMs: [],
  inlineMs: [],
  polls: 0,
  pollsOfCompleted: 0,
  completedInWindow: 0,
  createdInWindow: 0,
  inlineInWindow: 0,
  errors: {},
  errorSamples: [],
  // Every task id a CreateTaskResult gave (warm-up, run and drain): the runner checks the database for each.
  taskIds: [],
  completedIds: 0,
  // Tasks seen completed in the measured phase: the runner reads their server-side times from mcp_tasks.
  windowIds: [],
  inlineTotal: 0,
  unfinished: 0,
};
function error(kind, detail) {
  record.errors[kind] = (record.errors[kind] ?? 0) + 1;
  if (record.errorSamples.length < 5) record.errorSamples.push(`${kind}: ${String(detail).slice(0, 300)}`);
}

const isToolSuccess = (result) =>
  result && !result.isError && Array.isArray(result.content) && /"ok":\s*true/.test(result.content[0]?.text ?? '');

async function taskClient(client) {
  let id = 0;
  let turn = client;
  const next = () => turn++ % config.servers.length;
  while (performance.now() < t1) {
    const sent = performance.now();
    const created = await post(next(), mcpHeaders(ERA_2026, 'tools/call', config.tool, bearer(client)), callBody(++id));
    const result = created.json?.result;
    if (created.status !== 200 || result?.resultType !== 'task' || typeof result.taskId !== 'string') {
      error('create', `${created.status} ${created.text}`);
      await sleep(config.pollMs);
      continue;
    }
    record.taskIds.push(result.taskId);
    if (inWindow(sent)) {
      record.createdInWindow++;
      record.createMs.push(created.ms);
    }
    await follow(client, result.taskId, sent, next, () => ++id);
  }
}

/** tasks/get every pollMs until the task is finished (in the drain too, up to drainS after the run). */
async function follow(client, taskId, sent, next, nextId) {
  const deadline = t1 + config.drainS * 1000;
  let polls = 0;
  for (;;) {
    if (performance.now() > deadline) {
      record.unfinished++;
      return;
    }
    await sleep(config.pollMs);
    const answer = await post(
      next(),
      mcpHeaders(ERA_2026, 'tasks/get', taskId, bearer(client)),
      mcpBody(ERA_2026, 'tasks/get', { taskId }, nextId(), capabilities),
    );
    polls++;
    const asked = performance.now() - answer.ms;
    if (inWindow(asked)) {
      record.polls++;
      record.pollMs.push(answer.ms);
    }
    const task = answer.json?.result;
    if (answer.status !== 200 || !task?.status) {
      error('tasks/get', `${answer.status} ${answer.text}`);
      continue;
    }
    if (task.status === 'working') continue;
    const seen = performance.now();
    if (task.status !== 'completed' || !isToolSuccess(task.result)) {
      error(`task ${task.status}`, JSON.stringify(task.error ?? task.result ?? task.statusMessage));
      return;
    }
    record.completedIds++;
    if (inWindow(seen)) {
      record.completedInWindow++;
      record.windowIds.push(taskId);
      record.pollsOfCompleted += polls;
      record.completeMs.push(seen - sent);
      record.serverMs.push(Date.parse(task.lastUpdatedAt) - Date.parse(task.createdAt));
    }
    return;
  }
}

async function inlineClient(client) {
  let id = 0;
  let turn = client;
  while (performance.now() < t1) {
    const sent = performance.now();
    const answer = await post(
      turn++ % config.servers.length,
      mcpHeaders(ERA_2026, 'tools/call', config.tool, bearer(client)),
      callBody(++id),
    );
    const result = answer.json?.result;
    if (answer.status !== 200 || !isToolSuccess(result) || result.resultType === 'task') {
      error('inline', `${answer.status} ${answer.text}`);
      continue;
    }
    record.inlineTotal++;
    if (inWindow(sent + answer.ms)) {
      record.inlineInWindow++;
      record.inlineMs.push(answer.ms);
    }
  }
}

function percentiles(values) {
  if (!values.length) return { count: 0, p50: null, p90: null, p99: null, max: null, mean: null };
  const sorted = Float64Array.from(values).sort();
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return {
    count: sorted.length,
    p50: pct(50),
    p90: pct(90),
    p99: pct(99),
    max: sorted[sorted.length - 1],
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
  };
}

// ---------------------------------------------------------------------------------------------
// The queue's modes (pickup, burst, fairness)
// ---------------------------------------------------------------------------------------------
const epochNow = () => performance.timeOrigin + performance.now();

/** One create with the tasks extension declared; resolves with the task id and this machine's times, or undefined (recorded as an error). */
async function createTask(serverIndex, token, args, id) {
  const sentAt = epochNow();
  const created = await post(
    serverIndex,
    mcpHeaders(ERA_2026, 'tools/call', config.tool, { authorization: `Bearer ${token}` }),
    mcpBody(ERA_2026, 'tools/call', { name: config.tool, arguments: args }, id, TASKS_CAPABILITIES),
  );
  const result = created.json?.result;
  if (created.status !== 200 || result?.resultType !== 'task' || typeof result.taskId !== 'string') {
    error('create', `${created.status} ${created.text}`);
    return undefined;
  }
  return { id: result.taskId, server: serverIndex, sentAt, answeredAt: epochNow(), createMs: created.ms };
}

/** Resolves once none of `ids` is still `working` (or input_required) in mcp_tasks, or at `deadline` (epoch ms): the ids left. */
async function finished(db, ids, deadline) {
  let left = ids;
  for (;;) {
    const { rows } = await db.query(`SELECT id FROM mcp_tasks WHERE id = ANY($1::text[]) AND status IN ('working', 'input_required')`, [
      left,
    ]);
    left = rows.map((row) => row.id);
    if (!left.length || epochNow() > deadline) return left;
    await sleep(config.watchMs);
  }
}

async function queueRun() {
  const db = new pg.Client({ connectionString: config.databaseUrl });
  await db.connect();
  const tasks = [];
  let unfinished = [];
  let id = 0;
  const deadline = () => epochNow() + config.timeoutS * 1000;
  const createAll = async (role, token, args, count) => {
    const made = await Promise.all(Array.from({ length: count }, (_, i) => createTask(i % config.servers.length, token, args, ++id)));
    const ok = made.filter(Boolean).map((task) => ({ ...task, role }));
    tasks.push(...ok);
    return ok;
  };
  try {
    if (config.mode === 'pickup') {
      const [least, most] = config.gapMs;
      for (let i = 0; i < config.count; i++) {
        const task = await createTask(i % config.servers.length, config.tokens[0], config.arguments, ++id);
        if (task) {
          tasks.push({ ...task, role: 'pickup' });
          unfinished.push(...(await finished(db, [task.id], deadline())));
        }
        await sleep(least + Math.random() * (most - least));
      }
    } else if (config.mode === 'burst') {
      const made = await createAll('burst', config.tokens[0], config.arguments, config.count);
      unfinished = await finished(
        db,
        made.map((task) => task.id),
        deadline(),
      );
    } else {
      const flood = await createAll('flood', config.flood.token, config.flood.arguments, config.flood.count);
      const until = deadline();
      for (let i = 0; i < config.fair.count && epochNow() < until; i++) {
        const task = await createTask(i % config.servers.length, config.fair.token, config.fair.arguments, ++id);
        if (!task) continue;
        tasks.push({ ...task, role: 'fair' });
        unfinished.push(...(await finished(db, [task.id], until)));
      }
      unfinished.push(
        ...(await finished(
          db,
          flood.map((task) => task.id),
          until,
        )),
      );
    }
  } finally {
    await db.end();
  }
  const first = Math.min(...tasks.map((task) => task.sentAt));
  const last = Math.max(...tasks.map((task) => task.answeredAt));
  return {
    tasks,
    unfinished,
    // From the first create sent to the last answered (this machine's clock): how long creating them took.
    createSpanMs: tasks.length ? last - first : null,
    create: percentiles(tasks.map((task) => task.createMs)),
  };
}

if (queueMode) {
  const outcome = await queueRun();
  for (const agent of agents) agent.destroy();
  const errors = Object.values(record.errors).reduce((a, b) => a + b, 0);
  writeFileSync(
    resultPath,
    JSON.stringify({ mode: config.mode, errors, errorsByKind: record.errors, errorSamples: record.errorSamples, ...outcome }, null, 2),
  );
  process.exit(0);
}

const clients = Array.from({ length: config.connections }, (_, i) => (taskMode ? taskClient(i) : inlineClient(i)));
await Promise.all(clients);
const ended = performance.now();
for (const agent of agents) agent.destroy();
const durationS = config.durationS;
const errors = Object.values(record.errors).reduce((a, b) => a + b, 0);
writeFileSync(
  resultPath,
  JSON.stringify(
    {
      mode: config.mode,
      connections: config.connections,
      durationS,
      drainS: taskMode ? Math.max(0, (ended - t1) / 1000) : 0,
      loadGeneratorCpuUs: process.cpuUsage().user + process.cpuUsage().system,
      errors,
      errorsByKind: record.errors,
      errorSamples: record.errorSamples,
      ...(taskMode
        ? {
            createsPerS: record.createdInWindow / durationS,
            tasksPerS: record.completedInWindow / durationS,
            create: percentiles(record.createMs),
            complete: percentiles(record.completeMs),
            serverSide: percentiles(record.serverMs),
            poll: percentiles(record.pollMs),
            pollsPerS: record.polls / durationS,
            pollsPerCompletedTask: record.completedInWindow ? record.pollsOfCompleted / record.completedInWindow : null,
            tasksCreated: record.taskIds.length,
            tasksCompleted: record.completedIds,
            unfinished: record.unfinished,
            taskIds: record.taskIds,
            windowIds: record.windowIds,
          }
        : {
            rps: record.inlineInWindow / durationS,
            inline: percentiles(record.inlineMs),
            inlineTotal: record.inlineTotal,
          }),
    },
    null,
    2,
  ),
);
