/**
 * Tools declared as tasks (the `io.modelcontextprotocol/tasks` extension, SEP-2663; docs/tasks.md)
 * against a real Nest application (test/fixtures/tasks.fixture.ts):
 * - a 2026-07-28 client that declares the extension: `tools/call` over the wire (the official 2.x
 *   client refuses a `resultType: "task"` answer), `tasks/*` through the official 2.x client, which
 *   sends them with the extension in its `_meta` envelope and `Mcp-Name` set to the task id;
 * - a 2025-era client (the official 1.x SDK) following a `background` tool as a queued job;
 * - a REST client calling a route that is a `background` tool: 202 with the job and its
 *   `Location`, which it follows to the result.
 * What the tests read besides the wire: the fixture's ledger (writes applied only when a call
 * completes), its hook records, the tasks its store created and the gates its slow tools wait at.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Module } from '@nestjs/common';
import { Client, ProtocolError, StreamableHTTPClientTransport, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpModule } from '@nest-mcp/core';
import { InMemoryTaskStore, MCP_TASK_STORE, type McpTaskStore, TASKS_EXTENSION } from '@nest-mcp/core/extensions';
import {
  callStateless,
  callTool,
  envelopeOf,
  post,
  statelessRequest,
  startMcpTestApp,
  type Envelope,
  type McpTestApp,
  type ToolAnswer,
} from '@nest-mcp/core/testing';
import {
  aborted,
  archiveRuns,
  createdTasks,
  gates,
  handlerRuns,
  hookCalls,
  hookOutcomes,
  JOB_TOOL,
  ledger,
  MAX_ACTIVE_TASKS,
  POLL_INTERVAL_MS,
  MAX_STORED_BYTES,
  OkBackgroundRoutes,
  revokedUsers,
  RoutelessJobTools,
  SelfAnsweringBackgroundRoutes,
  StatementArchivesController,
  StoredTaskTools,
  taskEnds,
  TASK_TTL_MS,
  tasksApp,
  UnfollowableTools,
} from '../fixtures/tasks.fixture.js';
import { bootError, bootErrorOf } from '../support/boot-error.js';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** Client capabilities that declare the tasks extension, and the same with form elicitation. */
const TASKS = { extensions: { [TASKS_EXTENSION]: {} } };
const TASKS_AND_ELICITATION = { ...TASKS, elicitation: { form: {} } };
const MISSING_TASKS = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** One 2026-era `tools/call` as `user` (its bearer token), declaring the extension unless told otherwise. */
function call(
  url: string,
  user: string,
  name: string,
  args: Record<string, unknown>,
  options: { capabilities?: Record<string, unknown>; params?: Record<string, unknown> } = {},
): Promise<ToolAnswer> {
  return callTool(url, name, args, { token: user, capabilities: options.capabilities ?? TASKS, params: options.params });
}

/** A call that must have created a task: its `CreateTaskResult`. */
async function startTask(
  url: string,
  user: string,
  name: string,
  args: Record<string, unknown>,
  capabilities: Record<string, unknown> = TASKS,
) {
  const answer = await call(url, user, name, args, { capabilities });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.body.result?.resultType, 'task', answer.text);
  return answer.body.result as { taskId: string; status: string; [field: string]: unknown };
}

/** A `tasks/*` request over the wire, `Mcp-Name` set to the task id unless `mcpName` says otherwise (null: none). */
function taskRequest(
  url: string,
  user: string,
  method: 'tasks/get' | 'tasks/update' | 'tasks/cancel',
  params: { taskId: string; [field: string]: unknown },
  options: { capabilities?: Record<string, unknown>; mcpName?: string | null } = {},
) {
  const { mcpName = params.taskId } = options;
  const request = statelessRequest(method, params);
  request.body.params._meta['io.modelcontextprotocol/clientCapabilities'] = options.capabilities ?? TASKS;
  const headers: Record<string, string> = { ...request.headers, authorization: `Bearer ${user}` };
  if (mcpName !== null) headers['mcp-name'] = mcpName;
  return post(url, request.body, headers);
}

/** A REST request as `user` (no Authorization header when undefined), the body sent as JSON. */
async function rest(url: string, method: 'GET' | 'POST', user: string | undefined, body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: {
      ...(user ? { authorization: `Bearer ${user}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

/** Accepts any result: the 2.x client's `request()` needs a schema for the extension's methods. */
const anyResult: StandardSchemaV1<unknown, unknown> = {
  '~standard': { version: 1, vendor: 'e2e', validate: (value: unknown) => ({ value }) },
};

/** A task as `tasks/get` answers it (`resultType` and `_meta` taken off by the client). */
interface DetailedTask {
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  inputRequests?: Record<string, { method: string; params: Record<string, any> }>;
}

/** The official 2.x client pinned to 2026-07-28, declaring the extension, as `user`; every exchange recorded. */
async function tasksClient(url: string, user: string) {
  const exchanges: Array<{ headers: Headers; body: any; answer: any; status: number }> = [];
  const recordingFetch = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    const response = await fetch(input, init);
    const text = await response.text();
    exchanges.push({
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      answer: text ? JSON.parse(text) : undefined,
      status: response.status,
    });
    return new Response(text || null, { status: response.status, headers: response.headers });
  };
  const client = new Client(
    { name: 'tasks-e2e-client', version: '2.4.0' },
    { capabilities: TASKS_AND_ELICITATION, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: recordingFetch,
    requestInit: { headers: { authorization: `Bearer ${user}` } },
  });
  await client.connect(transport);
  const send = (method: string, params: Record<string, unknown>) => client.request({ method, params } as never, anyResult);
  return {
    exchanges,
    get: async (taskId: string) => (await send('tasks/get', { taskId })) as DetailedTask,
    update: (taskId: string, inputResponses: Record<string, unknown>) => send('tasks/update', { taskId, inputResponses }),
    cancel: (taskId: string) => send('tasks/cancel', { taskId }),
    close: () => client.close(),
  };
}
type TasksClient = Awaited<ReturnType<typeof tasksClient>>;

/** Polls `read` until `done` holds (or fails after `timeoutMs`); returns the last value read. */
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) assert.fail(`condition not reached in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The task once it reached `status` (polling `tasks/get`). */
const untilStatus = (client: TasksClient, taskId: string, status: string) =>
  until(
    () => client.get(taskId),
    (task) => task.status === status,
  );

/** The JSON envelope of a tool result (a completed task's inlined `result`). */
const envelopeOfResult = (result: unknown): Envelope => envelopeOf({ result });

/** Waits until the hook finished wrapping every run of a task (its transaction committed or rolled back). */
const untilRunsSettled = (taskId: string) =>
  until(
    () => hookCalls.filter((record) => record.taskId === taskId),
    (runs) => runs.length > 0 && runs.every((record) => record.outcome !== 'pending'),
  );

const tasksOf = (user: string) => createdTasks.filter((task) => task.workspaceId === `ws-${user}`);

/** The `-32602` a `tasks/*` request gets from the 2.x client, as comparable fields. */
async function rejection(request: Promise<unknown>): Promise<{ code: number; message: string; data: unknown }> {
  try {
    await request;
  } catch (error) {
    assert.ok(error instanceof ProtocolError, String(error));
    return { code: error.code, message: error.message, data: error.data };
  }
  return assert.fail('the request succeeded');
}

/** The official 1.x SDK client (2025 handshake era) as `user`. */
async function sdkClient(url: string, user: string): Promise<SdkClient> {
  const client = new SdkClient({ name: 'official-sdk-v1', version: '1.32.0' });
  await client.connect(new SdkTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${user}` } } }));
  return client;
}

/** The envelope of a 1.x client's tool result. */
function sdkEnvelope(result: unknown): Envelope {
  const { content } = result as { content: Array<{ type: string; text: string }> };
  return JSON.parse(content[0].text) as Envelope;
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe('MCP tasks (io.modelcontextprotocol/tasks)', () => {
  let t: McpTestApp;
  let store: McpTaskStore;
  const clients: TasksClient[] = [];
  /** A 2.x client as `user`, closed after the suite. */
  const clientAs = async (user: string) => {
    const client = await tasksClient(t.mcpUrl, user);
    clients.push(client);
    return client;
  };

  before(async () => {
    t = await startMcpTestApp(tasksApp());
    store = t.app.get<McpTaskStore>(MCP_TASK_STORE);
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await t?.close();
  });

  describe('a 2026 client that declares the extension', () => {
    it('gets a flat CreateTaskResult, durable at once: tasks/get finds it right after, then follows progress to the inlined result', async () => {
      const ana = await clientAs('ana');
      const hookedBefore = hookCalls.length;
      const created = await startTask(t.mcpUrl, 'ana', 'slow_export', { label: 'ana-export' });

      assert.deepEqual(Object.keys(created).sort(), [
        '_meta',
        'createdAt',
        'lastUpdatedAt',
        'pollIntervalMs',
        'resultType',
        'status',
        'statusMessage',
        'taskId',
        'ttlMs',
      ]);
      assert.match(created.taskId, UUID);
      assert.equal(created.status, 'working');
      assert.match(String(created.createdAt), ISO_DATE);
      assert.match(String(created.lastUpdatedAt), ISO_DATE);
      assert.equal(created.ttlMs, TASK_TTL_MS);
      assert.equal(created.pollIntervalMs, POLL_INTERVAL_MS);
      assert.ok(Number.isInteger(created.ttlMs) && Number.isInteger(created.pollIntervalMs));

      // Durable before the answer: the very next tasks/get resolves, through the official client.
      const first = await ana.get(created.taskId);
      assert.equal(first.taskId, created.taskId);
      assert.equal(first.status, 'working');
      assert.equal(first.createdAt, created.createdAt);
      const get = ana.exchanges.find((exchange) => exchange.body?.method === 'tasks/get')!;
      assert.equal(get.headers.get('mcp-name'), created.taskId);
      assert.deepEqual(get.body.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions, TASKS.extensions);
      assert.equal(get.answer.result.resultType, 'complete');

      // While it runs, its progress is the statusMessage; nothing is written yet.
      const running = await until(
        () => ana.get(created.taskId),
        (task) => task.statusMessage === 'Exporting (1/2)',
      );
      assert.equal(running.status, 'working');
      assert.equal(running.result, undefined);
      assert.deepEqual(ledger.of('ana'), []);

      gates.open('ana-export');
      const completed = await untilStatus(ana, created.taskId, 'completed');
      assert.equal(completed.result!.isError, undefined);
      const envelope = envelopeOfResult(completed.result);
      assert.equal(envelope.ok, true);
      assert.equal(envelope.toolName, 'slow_export');
      assert.deepEqual(envelope.data, { exported: 'ana-export' });
      await untilRunsSettled(created.taskId);
      assert.deepEqual(ledger.of('ana'), ['export:ana-export']);
      // The call accepted in the request, the work on the worker: each wrapped by the hook once.
      assert.deepEqual(hookCalls.slice(hookedBefore), [
        { target: 'slow_export', ranIn: 'request', outcome: 'committed' },
        { target: 'slow_export', ranIn: 'task', taskId: created.taskId, outcome: 'committed' },
      ]);
    });
  });

  describe('a task belongs to its caller', () => {
    it('another caller gets -32602 "Task not found" on tasks/get, update and cancel: the same error as an unknown id', async () => {
      const owner = await clientAs('olga');
      const other = await clientAs('oscar');
      const { taskId } = await startTask(t.mcpUrl, 'olga', 'report_build', { label: 'olga-report' });
      const unknownId = randomUUID();

      for (const [method, send] of [
        ['tasks/get', (id: string) => other.get(id)],
        ['tasks/update', (id: string) => other.update(id, { 'elicit-0': { action: 'accept', content: {} } })],
        ['tasks/cancel', (id: string) => other.cancel(id)],
      ] as const) {
        const foreign = await rejection(send(taskId));
        assert.equal(foreign.code, -32602, method);
        assert.match(foreign.message, /^Task not found/, method);
        assert.deepEqual(foreign, await rejection(send(unknownId)), `${method}: another caller's task and an unknown id look alike`);
      }

      // The owner's task went on as if nothing happened (the foreign cancel did not reach it).
      const done = await untilStatus(owner, taskId, 'completed');
      assert.deepEqual(envelopeOfResult(done.result).data, { report: 'olga-report' });
    });
  });

  describe('the extension is declared per request', () => {
    it('tasks/* without the extension declared: -32021 naming it in data.requiredCapabilities (HTTP 400)', async () => {
      const { taskId } = await startTask(t.mcpUrl, 'nina', 'report_build', { label: 'nina-report' });
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel'] as const) {
        const params = method === 'tasks/update' ? { taskId, inputResponses: {} } : { taskId };
        const answer = await taskRequest(t.mcpUrl, 'nina', method, params, { capabilities: {} });
        assert.equal(answer.status, 400, `${method}: ${answer.text}`);
        assert.equal(answer.body.error.code, -32021, method);
        assert.deepEqual(answer.body.error.data, MISSING_TASKS, method);
      }
      // The same request with the extension declared is answered.
      const declared = await taskRequest(t.mcpUrl, 'nina', 'tasks/get', { taskId });
      assert.equal(declared.status, 200, declared.text);
      assert.equal(declared.body.result.taskId, taskId);
    });

    it('a `required` tool from a client without the extension: -32021 (HTTP 400), nothing created nor run', async () => {
      const answer = await call(t.mcpUrl, 'nick', 'archive_build', { label: 'nick-archive' }, { capabilities: {} });
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.error.code, -32021);
      assert.deepEqual(answer.body.error.data, MISSING_TASKS);
      assert.deepEqual(tasksOf('nick'), []);
      assert.equal(handlerRuns.get('archive_build:nick-archive'), undefined);

      // With the extension declared, the same call is a task.
      await startTask(t.mcpUrl, 'nick', 'archive_build', { label: 'nick-archive' });
      assert.equal(tasksOf('nick').length, 1);
    });

    it('an `optional` tool from a client without the extension runs in the request: a complete result, no task', async () => {
      const answer = await call(t.mcpUrl, 'nora', 'report_build', { label: 'nora-report' }, { capabilities: {} });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body.result.resultType, 'complete');
      assert.equal(answer.body.result.taskId, undefined);
      assert.equal(answer.envelope.status, 'success');
      assert.deepEqual(answer.envelope.data, { report: 'nora-report' });
      // Done and committed before the answer, with no task anywhere.
      assert.deepEqual(ledger.of('nora'), ['report:nora-report']);
      assert.deepEqual(tasksOf('nora'), []);
    });
  });

  describe('the Mcp-Name header routes tasks/* by task id', () => {
    it('must equal params.taskId: a different or missing one is HTTP 400 with -32020, and nothing is cancelled', async () => {
      const { taskId } = await startTask(t.mcpUrl, 'hugo', 'slow_export', { label: 'hugo-export' });

      const mismatch = await taskRequest(t.mcpUrl, 'hugo', 'tasks/cancel', { taskId }, { mcpName: randomUUID() });
      assert.equal(mismatch.status, 400, mismatch.text);
      assert.equal(mismatch.body.error.code, -32020);
      assert.match(mismatch.body.error.message, /Mcp-Name/);

      const missing = await taskRequest(t.mcpUrl, 'hugo', 'tasks/cancel', { taskId }, { mcpName: null });
      assert.equal(missing.status, 400, missing.text);
      assert.equal(missing.body.error.code, -32020);

      const get = await taskRequest(t.mcpUrl, 'hugo', 'tasks/get', { taskId });
      assert.equal(get.status, 200, get.text);
      assert.equal(get.body.result.status, 'working', 'the refused cancels did not cancel');
      gates.open('hugo-export');
    });
  });

  describe('cancel', () => {
    it('mid-run aborts the signal, ends `cancelled`, rolls the write back; a second cancel is an empty ack', async () => {
      const carl = await clientAs('carl');
      const { taskId } = await startTask(t.mcpUrl, 'carl', 'slow_export', { label: 'carl-export' });
      // Running: it staged its write and waits at its gate.
      await until(
        () => gates.isWaiting('carl-export'),
        (waiting) => waiting,
      );

      const ack = (await carl.cancel(taskId)) as Record<string, unknown>;
      assert.deepEqual(Object.keys(ack), ['_meta'], 'an empty ack (resultType taken off by the client)');
      const cancel = carl.exchanges.find((exchange) => exchange.body?.method === 'tasks/cancel')!;
      assert.equal(cancel.answer.result.resultType, 'complete');

      await until(
        () => aborted.filter((entry) => entry.gate === 'carl-export'),
        (entries) => entries.length === 1,
      );
      assert.match(aborted.find((entry) => entry.gate === 'carl-export')!.reason, /cancelled/);
      const cancelled = await carl.get(taskId);
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(cancelled.result, undefined);
      assert.equal(cancelled.error, undefined);

      const [run] = await untilRunsSettled(taskId);
      assert.equal(run.outcome, 'threw');
      assert.deepEqual(ledger.of('carl'), [], 'the staged write was rolled back');

      const again = (await carl.cancel(taskId)) as Record<string, unknown>;
      assert.deepEqual(Object.keys(again), ['_meta']);
      // The hook heard of the cancel once (the second changed nothing), as the task's call, in the client's request.
      assert.deepEqual(
        taskEnds.filter((entry) => entry.end.taskId === taskId),
        [
          {
            target: 'slow_export',
            taskRun: taskId,
            end: { taskId, outcome: 'cancelled', code: 'task_cancelled', message: 'Cancelled by the client' },
          },
        ],
      );
      // Opening the gate now changes nothing: the run is over.
      gates.open('carl-export');
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal((await carl.get(taskId)).status, 'cancelled');
      assert.deepEqual(ledger.of('carl'), []);
    });
  });

  describe('a `background` tool from a 2025-era client (official 1.x SDK)', () => {
    it('is queued with a jobId, followed with the job tool to its result; another caller cannot see the job', async () => {
      const sam = await sdkClient(t.mcpUrl, 'sam');
      const tom = await sdkClient(t.mcpUrl, 'tom');
      try {
        const queued = await sam.callTool({ name: 'statement_export', arguments: { month: '2026-05' } });
        assert.equal(queued.isError, undefined);
        const envelope = sdkEnvelope(queued);
        assert.equal(envelope.ok, true);
        assert.equal(envelope.status, 'queued');
        const { jobId, queuedAt } = envelope.data as { jobId: string; queuedAt: string };
        assert.match(jobId, UUID);
        assert.match(queuedAt, ISO_DATE);
        assert.match(envelope.nextQuestion!, new RegExp(`Call ${JOB_TOOL} with job_id "${jobId}"`));
        assert.deepEqual(tasksOf('sam'), [{ id: jobId, tool: 'statement_export', workspaceId: 'ws-sam' }]);

        const job = async (client: SdkClient, id = jobId) =>
          sdkEnvelope(await client.callTool({ name: JOB_TOOL, arguments: { job_id: id } }));
        const working = await job(sam);
        assert.equal(working.ok, true);
        assert.equal(working.data.jobId, jobId);
        assert.equal(working.data.tool, 'statement_export');
        assert.equal(working.data.status, 'working');
        assert.equal(working.data.queuedAt, queuedAt);
        assert.equal(working.data.result, undefined);

        gates.open('statement-2026-05');
        const completed = await until(
          () => job(sam),
          (answer) => answer.data.status === 'completed',
        );
        assert.equal(completed.data.result.ok, true);
        assert.deepEqual(completed.data.result.data, { month: '2026-05', rows: 42 });
        await untilRunsSettled(jobId);
        assert.deepEqual(ledger.of('sam'), ['statement:2026-05']);

        const foreign = await tom.callTool({ name: JOB_TOOL, arguments: { job_id: jobId } });
        assert.equal(foreign.isError, true);
        const refused = sdkEnvelope(foreign);
        assert.equal(refused.errors[0].code, 'not_found');
        assert.equal(refused.data, undefined);
        assert.equal(sdkEnvelope(await tom.callTool({ name: JOB_TOOL, arguments: { job_id: randomUUID() } })).errors[0].code, 'not_found');
      } finally {
        await sam.close();
        await tom.close();
      }
    });
  });

  describe('a `background` tool that is a REST route, with no code for REST in it', () => {
    const archives = () => `${t.baseUrl}/statements/archives`;
    const runsOf = (month: string) => archiveRuns.filter((run) => run.month === month);

    it("answers REST 202 with the job, Location of the job tool's route and Retry-After; the handler runs only as the task's run", async () => {
      const accepted = await rest(archives(), 'POST', 'rae', { month: '2026-09' });
      assert.equal(accepted.status, 202, accepted.text);
      const jobId: string = accepted.body.jobId;
      assert.equal(typeof jobId, 'string');
      assert.equal(accepted.headers.get('location'), `/jobs/${jobId}`);
      assert.equal(accepted.headers.get('retry-after'), String(Math.max(1, Math.round(POLL_INTERVAL_MS / 1000))));
      assert.equal(accepted.body.tool, 'statement_archive');
      assert.equal(accepted.body.status, 'working');
      assert.match(accepted.body.queuedAt, ISO_DATE);
      assert.deepEqual(tasksOf('rae'), [{ id: jobId, tool: 'statement_archive', workspaceId: 'ws-rae' }]);

      const completed = await until(
        () => rest(`${t.baseUrl}${accepted.headers.get('location')}`, 'GET', 'rae'),
        (answer) => answer.body?.status === 'completed',
      );
      assert.equal(completed.status, 200, completed.text);
      assert.equal(completed.body.jobId, jobId);
      assert.equal(completed.body.result.ok, true);
      assert.deepEqual(completed.body.result.data, { month: '2026-09', archived: true });
      assert.deepEqual(runsOf('2026-09'), [{ month: '2026-09', taskId: jobId }], 'never in the REST request');
    });

    it('refuses an invalid body with a 400 naming the field, before anything is queued; the guards run first (401)', async () => {
      const invalid = await rest(archives(), 'POST', 'ray', { month: 'September' });
      assert.equal(invalid.status, 400, invalid.text);
      assert.deepEqual(
        invalid.body.errors.map((error: { code: string; field: string }) => [error.code, error.field]),
        [['invalid_argument', 'month']],
      );
      assert.match(invalid.body.message[0], /month/);

      const unknown = await rest(archives(), 'POST', 'ray', { month: '2026-10', format: 'pdf' });
      assert.equal(unknown.status, 400, unknown.text);
      assert.deepEqual(
        unknown.body.errors.map((error: { field: string }) => error.field),
        ['format'],
      );

      const anonymous = await rest(archives(), 'POST', undefined, { month: '2026-10' });
      assert.equal(anonymous.status, 401, anonymous.text);

      assert.deepEqual(tasksOf('ray'), [], 'no job for a refused request');
      assert.deepEqual([...runsOf('September'), ...runsOf('2026-10')], []);
    });

    it(`past tasks.maxActivePerWorkspace (${MAX_ACTIVE_TASKS}) unfinished tasks: 429 too_many_tasks saying what to do, nothing queued`, async () => {
      const labels = Array.from({ length: MAX_ACTIVE_TASKS }, (_, index) => `rox-export-${index}`);
      for (const label of labels) await startTask(t.mcpUrl, 'rox', 'slow_export', { label });
      try {
        const refused = await rest(archives(), 'POST', 'rox', { month: '2026-11' });
        assert.equal(refused.status, 429, refused.text);
        assert.equal(refused.body.code, 'too_many_tasks');
        assert.match(refused.body.message, new RegExp(`already has ${MAX_ACTIVE_TASKS} unfinished tasks`));
        assert.match(refused.body.message, /statement_archive was not started\. Wait for one to finish \(or cancel one\)/);
        assert.equal(refused.headers.get('location'), null);
        assert.equal(tasksOf('rox').length, MAX_ACTIVE_TASKS);
        assert.deepEqual(runsOf('2026-11'), []);
      } finally {
        for (const label of labels) gates.open(label);
      }
    });

    it(`arguments over tasks.maxStoredBytes (${MAX_STORED_BYTES}): 413 task_too_large, nothing queued`, async () => {
      const huge = await rest(archives(), 'POST', 'rod', { month: '2026-08', idempotency_key: 'k'.repeat(MAX_STORED_BYTES) });
      assert.equal(huge.status, 413, huge.text);
      assert.equal(huge.body.code, 'task_too_large');
      assert.match(huge.body.message, new RegExp(`more than the ${MAX_STORED_BYTES} a task may store: nothing was started`));
      assert.deepEqual(tasksOf('rod'), []);
    });

    it('over MCP is queued as any background tool is: the route gives the MCP client a job, not a REST answer', async () => {
      const queued = await call(t.mcpUrl, 'rio', 'statement_archive', { month: '2026-12' }, { capabilities: {} });
      assert.equal(queued.status, 200, queued.text);
      assert.equal(queued.envelope.status, 'queued', queued.text);
      const { jobId } = queued.envelope.data as { jobId: string };
      await until(
        () => runsOf('2026-12'),
        (runs) => runs.length > 0,
      );
      assert.deepEqual(runsOf('2026-12'), [{ month: '2026-12', taskId: jobId }]);
    });
  });

  describe('a `background` tool from a 2025-era client with an idempotency key', () => {
    it('a repeat answers the same queued job, and the hook is told it was queued (a replay), not a success', async () => {
      const sue = await sdkClient(t.mcpUrl, 'sue');
      try {
        const args = { month: '2026-07', idempotency_key: 'sue-statement-1' };
        const first = await sue.callTool({ name: 'statement_export', arguments: args });
        const again = await sue.callTool({ name: 'statement_export', arguments: args });
        const envelope = sdkEnvelope(first);
        assert.equal(envelope.status, 'queued', JSON.stringify(envelope.errors));
        assert.deepEqual(sdkEnvelope(again), envelope, 'the stored answer: the same job');
        assert.equal(tasksOf('sue').length, 1);
        assert.deepEqual(hookOutcomes.filter((entry) => entry.target === 'statement_export' && entry.ranIn === 'request').slice(-2), [
          // The first names the job it created (its audit row carries it); the replay created none.
          {
            target: 'statement_export',
            ranIn: 'request',
            outcome: { status: 'queued', isError: false, taskId: (envelope.data as { jobId: string }).jobId },
          },
          { target: 'statement_export', ranIn: 'request', outcome: { status: 'queued', isError: false, replayed: true } },
        ]);
        gates.open('statement-2026-07');
        await untilRunsSettled((envelope.data as { jobId: string }).jobId);
      } finally {
        await sue.close();
      }
    });
  });

  describe('an idempotency key', () => {
    it('the same call twice with the same key gets the same taskId, and the work runs once', async () => {
      const ida = await clientAs('ida');
      const args = { label: 'ida-report', idempotency_key: 'ida-key-1' };
      const first = await startTask(t.mcpUrl, 'ida', 'report_build', args);
      const second = await startTask(t.mcpUrl, 'ida', 'report_build', args);
      assert.equal(second.taskId, first.taskId);

      await untilStatus(ida, first.taskId, 'completed');
      await untilRunsSettled(first.taskId);
      // A third repeat after completion still answers the same task.
      assert.equal((await startTask(t.mcpUrl, 'ida', 'report_build', args)).taskId, first.taskId);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(handlerRuns.get('report_build:ida-report'), 1);
      assert.equal(tasksOf('ida').length, 1);
      assert.deepEqual(ledger.of('ida'), ['report:ida-report']);
    });
  });

  describe('a destructive task tool', () => {
    const YES = { confirm: { action: 'accept', content: { confirm: true } } };
    const NO = { confirm: { action: 'accept', content: { confirm: false } } };

    it('is confirmed (multi round-trip) before the task exists: no task until the client answers yes', async () => {
      const dee = await clientAs('dee');
      const asked = await call(t.mcpUrl, 'dee', 'ledger_purge', { label: 'dee-purge' }, { capabilities: TASKS_AND_ELICITATION });
      assert.equal(asked.body.result.resultType, 'input_required', asked.text);
      assert.equal(asked.body.result.taskId, undefined);
      assert.equal(asked.body.result.inputRequests.confirm.method, 'elicitation/create');
      assert.match(asked.body.result.inputRequests.confirm.params.message, /Purge the ledger/);
      assert.deepEqual(tasksOf('dee'), [], 'no task while the question is open');

      const yes = await call(
        t.mcpUrl,
        'dee',
        'ledger_purge',
        { label: 'dee-purge' },
        {
          capabilities: TASKS_AND_ELICITATION,
          params: { requestState: asked.body.result.requestState, inputResponses: YES },
        },
      );
      assert.equal(yes.body.result.resultType, 'task', yes.text);
      assert.deepEqual(
        tasksOf('dee').map((task) => task.id),
        [yes.body.result.taskId],
      );
      const done = await untilStatus(dee, yes.body.result.taskId, 'completed');
      assert.deepEqual(envelopeOfResult(done.result).data, { purged: 'dee-purge' });
      await untilRunsSettled(yes.body.result.taskId);
      assert.deepEqual(ledger.of('dee'), ['purge:dee-purge']);
    });

    it('a decline creates no task and runs nothing', async () => {
      const asked = await call(t.mcpUrl, 'dan', 'ledger_purge', { label: 'dan-purge' }, { capabilities: TASKS_AND_ELICITATION });
      assert.equal(asked.body.result.resultType, 'input_required', asked.text);
      const no = await call(
        t.mcpUrl,
        'dan',
        'ledger_purge',
        { label: 'dan-purge' },
        {
          capabilities: TASKS_AND_ELICITATION,
          params: { requestState: asked.body.result.requestState, inputResponses: NO },
        },
      );
      assert.equal(no.body.result.resultType, 'complete', no.text);
      assert.equal(no.isError, true);
      assert.equal(no.envelope.errors[0].code, 'confirmation_declined');
      assert.deepEqual(tasksOf('dan'), []);
      assert.equal(handlerRuns.get('ledger_purge:dan-purge'), undefined);
      assert.deepEqual(ledger.of('dan'), []);
    });
  });

  describe('a flood of tasks', () => {
    it(`past tasks.maxActivePerWorkspace (${MAX_ACTIVE_TASKS}) unfinished tasks the next call is a retryable too_many_tasks, no task created`, async () => {
      const flo = await clientAs('flo');
      const labels = Array.from({ length: MAX_ACTIVE_TASKS }, (_, index) => `flo-export-${index}`);
      const created = [];
      for (const label of labels) created.push(await startTask(t.mcpUrl, 'flo', 'slow_export', { label }));
      assert.equal(await store.countActive({ workspaceId: 'ws-flo', ownerKey: '' }), MAX_ACTIVE_TASKS);

      const refused = await call(t.mcpUrl, 'flo', 'slow_export', { label: 'flo-export-extra' });
      assert.equal(refused.status, 200, refused.text);
      assert.equal(refused.body.result.resultType, 'complete');
      assert.equal(refused.body.result.taskId, undefined);
      assert.equal(refused.isError, true);
      assert.equal(refused.envelope.errors[0].code, 'too_many_tasks');
      assert.equal(refused.envelope.errors[0].retryable, true);
      assert.equal(tasksOf('flo').length, MAX_ACTIVE_TASKS);
      assert.equal(handlerRuns.get('slow_export:flo-export-extra'), undefined);

      // Another workspace is not limited by this one.
      gates.open('fay-export');
      await startTask(t.mcpUrl, 'fay', 'slow_export', { label: 'fay-export' });

      // Once one finishes, a call is accepted again.
      gates.open(labels[0]);
      await untilStatus(flo, created[0].taskId, 'completed');
      gates.open('flo-export-extra');
      await startTask(t.mcpUrl, 'flo', 'slow_export', { label: 'flo-export-extra' });
      for (const label of labels) gates.open(label);
    });
  });

  describe('what a task stores', () => {
    it("keeps only the client's capability flags and info, and only answers to questions asked", async () => {
      const huge = 'x'.repeat(200_000);
      const created = await startTask(
        t.mcpUrl,
        'bea',
        'slow_export',
        { label: 'bea-export' },
        {
          ...TASKS,
          elicitation: { form: {}, _meta: { filler: huge } },
          sampling: { context: {}, tools: {} },
          experimental: { filler: huge },
        },
      );
      const task = (await store.get(created.taskId))!;
      assert.deepEqual(task.client.capabilities, { elicitation: { form: {} }, sampling: {}, extensions: { [TASKS_EXTENSION]: {} } });
      assert.ok(JSON.stringify(task.client).length < 500, `the client takes ${JSON.stringify(task.client).length} bytes`);
      gates.open('bea-export');

      // Answers to questions nobody asked (no request state) are not the task's to keep.
      const unasked = await call(
        t.mcpUrl,
        'bea',
        'slow_export',
        { label: 'bea-export-2' },
        { params: { inputResponses: { 'elicit-7': { huge } } } },
      );
      assert.equal(unasked.body.result.resultType, 'task', unasked.text);
      assert.equal((await store.get(unasked.body.result.taskId))!.inputResponses, undefined);
      gates.open('bea-export-2');
    });

    it(`arguments over tasks.maxStoredBytes (${MAX_STORED_BYTES}) get task_too_large, no task created`, async () => {
      const before = tasksOf('bo').length;
      const key = 'k'.repeat(MAX_STORED_BYTES);
      const refused = await call(t.mcpUrl, 'bo', 'slow_export', { label: 'bo-export', idempotency_key: key });
      assert.equal(refused.isError, true, refused.text);
      assert.equal(refused.envelope.errors[0].code, 'task_too_large');
      assert.match(
        refused.envelope.errors[0].message,
        new RegExp(`arguments of this slow_export call take \\d+ bytes as JSON, more than the ${MAX_STORED_BYTES} a task may store`),
      );
      assert.equal(tasksOf('bo').length, before);
      assert.equal(handlerRuns.get('slow_export:bo-export'), undefined);
    });
  });

  describe('a caller who can no longer act', () => {
    it('makes the task `failed` with the refusal of taskCallers.actAs (McpTaskRefused), nothing done', async () => {
      const rex = await clientAs('rex');
      // The task asks first (nothing written), then waits for the answer.
      const { taskId } = await startTask(t.mcpUrl, 'rex', 'customer_import', { label: 'rex-import' }, TASKS_AND_ELICITATION);
      await untilStatus(rex, taskId, 'input_required');
      assert.equal(handlerRuns.get('customer_import:rex-import'), 1);

      // Revoked meanwhile: the answer resumes the task, whose run is refused before the method runs.
      revokedUsers.add('rex');
      await rex.update(taskId, { 'elicit-0': { action: 'accept', content: { currency: 'MXN' } } });
      const failed = await untilStatus(rex, taskId, 'failed');
      const message = 'customer_import could not run: the access of rex was revoked after the task was created';
      assert.deepEqual(failed.error, { code: -32600, message });
      assert.equal(failed.statusMessage, message);
      assert.equal(failed.result, undefined);
      assert.equal(handlerRuns.get('customer_import:rex-import'), 1, 'the method did not run again');
      assert.equal(hookCalls.filter((record) => record.taskId === taskId).length, 1, 'no second run reached the hook');
      // …so the hook hears of the refusal as the task's end, once.
      assert.deepEqual(
        taskEnds.filter((entry) => entry.end.taskId === taskId).map((entry) => entry.end),
        [{ taskId, outcome: 'refused', code: 'task_refused', message }],
      );
      assert.deepEqual(ledger.of('rex'), []);
    });
  });

  describe('input during a task', () => {
    it('an elicitation inside the task makes it input_required; an unknown key is ignored, the right one completes it', async () => {
      const ivy = await clientAs('ivy');
      const { taskId } = await startTask(t.mcpUrl, 'ivy', 'customer_import', { label: 'ivy-import' }, TASKS_AND_ELICITATION);
      const waiting = await untilStatus(ivy, taskId, 'input_required');
      assert.deepEqual(Object.keys(waiting.inputRequests!), ['elicit-0']);
      assert.equal(waiting.inputRequests!['elicit-0'].method, 'elicitation/create');
      assert.match(waiting.inputRequests!['elicit-0'].params.message, /Which currency/);
      assert.equal(waiting.result, undefined);

      const ignored = (await ivy.update(taskId, { 'elicit-9': { action: 'accept', content: { currency: 'MXN' } } })) as Record<
        string,
        unknown
      >;
      assert.deepEqual(Object.keys(ignored), ['_meta'], 'an empty ack');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const still = await ivy.get(taskId);
      assert.equal(still.status, 'input_required');
      assert.deepEqual(still.inputRequests, waiting.inputRequests);
      assert.equal(handlerRuns.get('customer_import:ivy-import'), 1);

      await ivy.update(taskId, { 'elicit-0': { action: 'accept', content: { currency: 'USD' } } });
      const done = await untilStatus(ivy, taskId, 'completed');
      assert.equal(done.inputRequests, undefined);
      assert.deepEqual(envelopeOfResult(done.result).data, { imported: 'ivy-import', currency: 'USD' });
      await untilRunsSettled(taskId);
      assert.deepEqual(ledger.of('ivy'), ['import:ivy-import:USD']);
    });
  });
});

describe('MCP tasks: configurations that cannot run fail the boot', () => {
  it('a `background` tool without tasks.jobTool: the message names the tool and tasks.jobTool', async () => {
    @Module({ imports: [McpModule.forRoot({})], providers: [UnfollowableTools] })
    class NoJobToolApp {}
    const message = await bootError(NoJobToolApp);
    assert.match(message, /nightly_reconcile is declared task: 'background'/);
    assert.match(message, /tasks\.jobTool is not set/);
  });

  it('a `background` REST route whose job tool is no route: no Location to give, the message names the route and the fix', async () => {
    @Module({
      imports: [McpModule.forRoot({ tasks: { jobTool: 'plain_job_get' } })],
      controllers: [StatementArchivesController],
      providers: [RoutelessJobTools],
    })
    class RoutelessJobApp {}
    const message = await bootError(RoutelessJobApp);
    assert.match(message, /StatementArchivesController\.archive/);
    assert.match(message, /the job tool plain_job_get \(RoutelessJobTools\.job\) is no route/);
    assert.match(message, /@Get\('jobs\/:job_id'\)/);
  });

  it('a `background` REST route that says @HttpCode(200), or writes its own response with @Res()', async () => {
    const ok = await bootErrorOf(OkBackgroundRoutes);
    assert.match(ok, /OkBackgroundRoutes\.queue: @HttpCode\(200\)/);
    assert.match(ok, /Remove @HttpCode\(200\)/);
    const selfAnswering = await bootErrorOf(SelfAnsweringBackgroundRoutes);
    assert.match(selfAnswering, /SelfAnsweringBackgroundRoutes\.queue: @Res\(\)/);
    assert.match(selfAnswering, /@Res\(\{ passthrough: true \}\)/);
  });

  it('a taskStore given without taskCallers', async () => {
    @Module({ imports: [McpModule.forRoot({ taskStore: { useClass: InMemoryTaskStore } })], providers: [StoredTaskTools] })
    class StoreWithoutCallersApp {}
    const message = await bootError(StoreWithoutCallersApp);
    assert.match(message, /a taskStore is given but no taskCallers/);
    assert.match(message, /taskCallers: \{ useExisting: YourTaskCallers \}/);
  });

  it('the same task tool boots with the default (in-memory) store and callers', async () => {
    @Module({ imports: [McpModule.forRoot({})], providers: [StoredTaskTools] })
    class DefaultsApp {}
    const app = await startMcpTestApp(DefaultsApp);
    try {
      const answer = await callStateless(app.mcpUrl, 'tools/call', { name: 'bulk_update', arguments: {} });
      assert.equal(answer.body.result.resultType, 'complete', answer.text);
    } finally {
      await app.close();
    }
  });
});
