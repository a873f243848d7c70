import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import pg from 'pg';
import { chromium, type Browser } from 'playwright-core';
import {
  appDatabase,
  type AppDatabase,
  appScaffold,
  atInstalledVersion,
  boot,
  freePort,
  install,
  NEST_APP_PEERS,
  pack,
  prismaGenerate,
  repo,
  run,
  stop,
  tsc,
  writeFiles,
} from '../support/fresh-app.js';

/**
 * docs/whole-system.md, followed by a new user: every package is packed (`npm pack`, as published),
 * a new ESM Nest app in a temporary folder outside the repository installs the five tarballs and
 * the page's dependencies with npm, takes every code block of the page that names a file as it is,
 * runs the page's schema step, generates its Prisma client, compiles with tsc and runs as two
 * replicas behind a load balancer, on one PostgreSQL database and one Redis, with tokens from an
 * identity provider of the test's (a JWKS it serves). Then, through the wire only, each promise of
 * the page: scopes on MCP and REST, an approval decided in Chromium on the mounted admin pages, an
 * MCP write audited and stamped `mcp` (and a refused one leaving nothing), an idempotent retry, a
 * background task that completes once after `kill -9` of the replica running it, and a stream-mode
 * session opened on one replica and continued on the other.
 */

const PAGE = join(repo, 'packages', 'nest-mcp', 'docs', 'whole-system.md');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PACKAGES = ['nest-mcp', 'nest-mcp-prisma', 'nest-mcp-admin', 'nest-mcp-redis', 'nest-mcp-auth'];
/** The page's `npm install` lines, besides the tarballs and a Nest app's own. */
const PAGE_DEPENDENCIES = [
  '@modelcontextprotocol/server',
  '@prisma/client',
  '@prisma/adapter-pg',
  'pg',
  'pg-boss',
  '@redis/client',
  '@types/pg',
  'prisma',
];
/** The core's run limit on both replicas: how long a killed replica's task waits before the other takes it. */
const TASK_MAX_RUN_MS = 6_000;
const APPROVER = 'ada';

/** The app's own tables, as `prisma migrate` makes them from the page's tickets.prisma. */
const APP_TABLES = `
CREATE TABLE "tickets" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_via" TEXT NOT NULL,
    "updated_via" TEXT NOT NULL,
    CONSTRAINT "tickets_pkey" PRIMARY KEY ("id")
);
CREATE TABLE "reports" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tickets" INTEGER NOT NULL,
    "created_via" TEXT NOT NULL,
    "updated_via" TEXT NOT NULL,
    CONSTRAINT "reports_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "reports_name_key" ON "reports"("name");`;

/** Every code block of the page that names a file (```ts file=src/x.ts): path → text. */
export function pageFiles(markdown: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [, path, text] of markdown.matchAll(/```\w+ file=(\S+)\n([\s\S]*?)```/g)) files[path] = text;
  return files;
}

/** The lines of the page's shell blocks that start with `command` (the schema step's `cp`). */
function pageCommands(markdown: string, command: string): string[] {
  const blocks = [...markdown.matchAll(/```bash\n([\s\S]*?)```/g)].map(([, text]) => text);
  return blocks.flatMap((text) => text.split('\n')).filter((line) => line.startsWith(`${command} `));
}

/** An identity provider as far as a resource server sees one: an issuer URL, its JWKS, tokens signed with its key. */
async function identityProvider() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(req.url === '/jwks' ? { keys: [jwk] } : { error: 'not_found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const sign = (key: CryptoKey, claims: { sub: string; scope: string; aud: string }) =>
    new SignJWT({ scope: claims.scope })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ: 'at+jwt' })
      .setIssuer(issuer)
      .setSubject(claims.sub)
      .setAudience(claims.aud)
      .setIssuedAt()
      .setExpirationTime('15m')
      .sign(key);
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    server,
    token: (claims: { sub: string; scope: string; aud: string }) => sign(privateKey, claims),
  };
}

/** A load balancer in front of the replicas: every request goes to `target`, which the test moves. */
async function loadBalancer() {
  let target = 0;
  const server = createServer((req, res) => {
    const upstream = httpRequest({ host: '127.0.0.1', port: target, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    routeTo(port: number) {
      target = port;
    },
  };
}

interface AuditRow {
  channel: string;
  method: string;
  outcome: string;
  user_id: string | null;
  workspace_id: string | null;
  arguments: Record<string, unknown>;
}

interface Replica {
  port: number;
  child: ChildProcess;
  output: string[];
}

/** Starts the compiled app (the page's main.ts) on `port`; resolves once it prints its endpoint. */
async function startReplica(app: string, port: number, env: Record<string, string>): Promise<Replica> {
  const output: string[] = [];
  const { child } = await boot(app, output, { ...env, PORT: String(port) }, /MCP endpoint: (\S+)/);
  return { port, child, output };
}

/** Audit rows in a stable order (rows of one transaction share their timestamp). */
const byChannelAndMethod = (a: { channel: string; method: string }, b: { channel: string; method: string }) =>
  `${a.channel} ${a.method}`.localeCompare(`${b.channel} ${b.method}`);

/** The envelope a tool answers with (its first text content, as JSON). */
const envelopeOf = (result: unknown) => JSON.parse((result as { content: Array<{ text: string }> }).content[0].text);

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

const skip = !process.env.DATABASE_URL
  ? 'needs DATABASE_URL (a PostgreSQL server)'
  : !existsSync(CHROMIUM) && !process.env.CI
    ? `no browser at ${CHROMIUM} (CI installs it: .ci/run)`
    : false;

describe(
  'docs/whole-system.md on a fresh app from the five tarballs: two replicas, PostgreSQL, Redis, Chromium',
  { skip, timeout: 600_000 },
  () => {
    let work: string | undefined;
    let app: string;
    let database: AppDatabase | undefined;
    let db: pg.Client | undefined;
    let idp: Awaited<ReturnType<typeof identityProvider>> | undefined;
    let lb: Awaited<ReturnType<typeof loadBalancer>> | undefined;
    let browser: Browser | undefined;
    const replicas: Replica[] = [];
    let readToken: string;
    let writeToken: string;
    let restWriteToken: string;
    let restReadToken: string;

    before(async () => {
      work = mkdtempSync(join(realpathSync(tmpdir()), 'nest-mcp-whole-system-'));
      const packages = join(work, 'packages');
      mkdirSync(packages);
      // The core first: every other package's build compiles against its declarations (then prisma's, for admin).
      const tarballs = PACKAGES.map((name) => pack(`packages/${name}`, packages).tarball);

      app = join(work, 'app');
      const page = readFileSync(PAGE, 'utf8');
      const { 'src/main.ts': _scaffoldMain, ...scaffold } = appScaffold('acme-tickets');
      writeFiles(app, { ...scaffold, ...pageFiles(page) });
      install(app, [...tarballs, ...[...NEST_APP_PEERS, ...PAGE_DEPENDENCIES].map(atInstalledVersion)]);

      // The schema step, as the page writes it (migrate itself is replaced below: see the database).
      for (const command of pageCommands(page, 'cp')) run('sh', ['-c', command], app);
      prismaGenerate(app, work);
      run(process.execPath, [tsc, '-p', 'tsconfig.json'], app);

      // Where the page says `prisma migrate dev`: the same tables from SQL (migrate needs Prisma's
      // native schema engine, which cannot be downloaded here): the packages' own SQL files, shipped
      // beside their schema files, and what migrate makes of the app's models.
      database = await appDatabase('whole_system', [
        readFileSync(join(app, 'node_modules', '@nest-mcp', 'prisma', 'prisma', 'nest-mcp.sql'), 'utf8'),
        readFileSync(join(app, 'node_modules', '@nest-mcp', 'admin', 'prisma', 'nest-mcp-admin.sql'), 'utf8'),
        APP_TABLES,
      ]);
      db = database.client;

      idp = await identityProvider();
      lb = await loadBalancer();
      const env = {
        DATABASE_URL: database.url,
        REDIS_URL,
        PUBLIC_URL: lb.url,
        OIDC_ISSUER: idp.issuer,
        OIDC_JWKS_URI: idp.jwksUri,
        REQUEST_STATE_SECRET: randomBytes(32).toString('hex'),
        APPROVERS: APPROVER,
        TASK_WORKERS: '1',
        TASK_MAX_RUN_MS: String(TASK_MAX_RUN_MS),
      };
      const [portA, portB] = [await freePort(), await freePort()];
      replicas.push(...(await Promise.all([startReplica(app, portA, env), startReplica(app, portB, env)])));
      lb.routeTo(portA);

      const mcpAudience = `${lb.url}/mcp`;
      readToken = await idp.token({ sub: 'rita', scope: 'tickets:read', aud: mcpAudience });
      writeToken = await idp.token({ sub: 'will', scope: 'tickets:read tickets:write', aud: mcpAudience });
      restReadToken = await idp.token({ sub: 'rita', scope: 'tickets:read', aud: lb.url });
      restWriteToken = await idp.token({ sub: 'will', scope: 'tickets:read tickets:write', aud: lb.url });
    });

    after(async () => {
      await browser?.close();
      await Promise.all(replicas.map((replica) => stop(replica.child)));
      for (const server of [lb?.server, idp?.server]) server?.closeAllConnections();
      lb?.server.close();
      idp?.server.close();
      await database?.drop();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    const mcpUrl = () => new URL(`${lb!.url}/mcp`);
    /** The official 2.x client (2026-07-28 era), with a bearer token. */
    async function client2026(token: string): Promise<Client> {
      const client = new Client({ name: 'acme-agent', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      return client;
    }
    /** The official 1.x client (2025 era, no elicitation: destructive calls get an approval link). */
    async function client2025(token: string, sessionId?: string): Promise<{ client: SdkClient; transport: SdkTransport }> {
      const client = new SdkClient({ name: 'acme-agent-v1', version: '1.0.0' });
      const transport = new SdkTransport(mcpUrl(), { sessionId, requestInit: { headers: { authorization: `Bearer ${token}` } } });
      await client.connect(transport);
      return { client, transport };
    }
    const ticketsTitled = async (title: string) =>
      (await db!.query<{ id: string; created_via: string }>('SELECT id, created_via FROM tickets WHERE title = $1', [title])).rows;
    const auditOf = async (target: string) =>
      (
        await db!.query<AuditRow>(
          `SELECT channel, method, outcome, user_id, workspace_id, arguments FROM mcp_audit_events WHERE target = $1 ORDER BY occurred_at, id`,
          [target],
        )
      ).rows;

    it('is installed from the five tarballs, outside the repository, and boots from the page alone', () => {
      assert.ok(!app.startsWith(repo + '/'), `${app} must be outside ${repo}`);
      const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'));
      for (const name of ['core', 'prisma', 'admin', 'redis', 'auth']) {
        assert.match(lock.packages[`node_modules/@nest-mcp/${name}`].resolved, new RegExp(`nest-mcp-${name}-.*\\.tgz$`));
      }
      const log = replicas[0].output.join('');
      assert.match(log, /callHook = McpAuditHook/);
      assert.match(log, /taskQueue = PgBossTaskQueue/);
      assert.match(log, /approvalLinks = McpAdminApprovalLinks/);
      assert.match(log, /sessionStore = RedisSessionStore; eventStore = RedisEventStore; messageBus = RedisMessageBus/);
    });

    it("REST and MCP answer only what the token's scopes allow", async () => {
      const anonymous = await fetch(mcpUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} }),
      });
      assert.equal(anonymous.status, 401);
      assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Bearer .*resource_metadata="[^"]+"/);
      const metadata = await fetch(`${lb!.url}/.well-known/oauth-protected-resource/mcp`);
      assert.equal(metadata.status, 200);
      const document = (await metadata.json()) as { resource: string; authorization_servers: string[] };
      assert.equal(document.resource, `${lb!.url}/mcp`);
      assert.deepEqual(document.authorization_servers, [idp!.issuer]);

      const reader = await client2026(readToken);
      try {
        const names = (await reader.listTools()).tools.map((tool) => tool.name).sort();
        assert.deepEqual(names, ['reports_create', 'reports_job_get', 'tickets_list']);
      } finally {
        await reader.close();
      }
      const refused = await fetch(mcpUrl(), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${readToken}`,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'tickets_create',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: {
            name: 'tickets_create',
            arguments: { title: 'not allowed' },
            _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
          },
        }),
      });
      assert.equal(refused.status, 403, await refused.clone().text());
      assert.match(refused.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/);
      assert.match(refused.headers.get('www-authenticate') ?? '', /scope="[^"]*tickets:write/);

      const rest = (token: string, title: string) =>
        fetch(`${lb!.url}/tickets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ title }),
        });
      assert.equal((await rest(restReadToken, 'over REST, read only')).status, 403);
      const created = await rest(restWriteToken, 'over REST');
      assert.equal(created.status, 201, await created.clone().text());
      assert.deepEqual(
        (await ticketsTitled('over REST')).map((row) => row.created_via),
        ['api'],
      );
      assert.equal((await ticketsTitled('over REST, read only')).length, 0);
      assert.equal(
        (await fetch(`${lb!.url}/tickets`, { headers: { authorization: `Bearer ${writeToken}` } })).status,
        401,
        'an MCP token is not a REST token',
      );
    });

    it('an MCP write commits stamped created_via mcp with its audit row; a refused import leaves nothing', async () => {
      const client = await client2026(writeToken);
      try {
        const created = await client.callTool({ name: 'tickets_create', arguments: { title: 'over MCP' } });
        assert.notEqual(created.isError, true, JSON.stringify(created));
        const refused = await client.callTool({ name: 'tickets_import', arguments: { titles: ['imported 1', 'imported 2', 'over MCP'] } });
        assert.equal(refused.isError, true, JSON.stringify(refused));
        assert.match(JSON.stringify(envelopeOf(refused)), /exists/);
      } finally {
        await client.close();
      }
      assert.deepEqual(
        (await ticketsTitled('over MCP')).map((row) => row.created_via),
        ['mcp'],
      );
      assert.deepEqual(await ticketsTitled('imported 1'), [], 'the import rolled back with its refusal');
      const created = (await auditOf('tickets_create')).filter((row) => row.arguments.title === 'over MCP');
      assert.deepEqual(
        created.map(({ outcome, user_id, workspace_id }) => ({ outcome, user_id, workspace_id })),
        [{ outcome: 'success', user_id: 'will', workspace_id: 'acme' }],
      );
      assert.deepEqual(
        (await auditOf('tickets_import')).map((row) => row.outcome),
        ['failed'],
      );
    });

    it('a retried call with the same idempotency key runs once, on either replica', async () => {
      const client = await client2026(writeToken);
      try {
        const call = () => client.callTool({ name: 'tickets_create', arguments: { title: 'once', idempotency_key: 'retry-1' } });
        const first = await call();
        lb!.routeTo(replicas[1].port);
        const again = await call();
        lb!.routeTo(replicas[0].port);
        assert.notEqual(first.isError, true, JSON.stringify(first));
        assert.deepEqual(again, first);
      } finally {
        await client.close();
      }
      assert.equal((await ticketsTitled('once')).length, 1);
    });

    it('a destructive call gets an approval link; the approver chooses Continue in Chromium; the agent gets the result', async () => {
      const [ticket] = await ticketsTitled('over MCP');
      const { client } = await client2025(writeToken);
      try {
        const ask = () => client.callTool({ name: 'tickets_delete', arguments: { id: ticket.id } });
        const pending = envelopeOf(await ask());
        assert.equal(pending.status, 'pending_confirmation', JSON.stringify(pending));
        const link: string = pending.approval.url;
        assert.ok(link.startsWith(`${lb!.url}/admin/approvals/`), link);
        assert.equal((await ticketsTitled('over MCP')).length, 1, 'nothing runs before a person decides');

        browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
        // The SSO proxy in front of the app signs the person in (page section 3): its header names them.
        const context = await browser.newContext({ extraHTTPHeaders: { 'x-auth-request-user': APPROVER } });
        const page = await context.newPage();
        await page.goto(link);
        await page.getByRole('heading', { name: /tickets_delete/ }).waitFor();
        assert.match(await page.content(), new RegExp(ticket.id));
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByRole('heading', { name: /^Done: .* ran$/ }).waitFor();
        await context.close();

        const done = envelopeOf(await ask());
        assert.equal(done.ok, true, JSON.stringify(done));
        assert.deepEqual(done.data, { deleted: ticket.id });
      } finally {
        await client.close();
      }
      assert.deepEqual(await ticketsTitled('over MCP'), []);
      assert.deepEqual(
        // The run and the decision commit together (one timestamp): compared in a fixed order.
        (await auditOf('tickets_delete'))
          .map(({ channel, method, outcome, user_id }) => ({ channel, method, outcome, user_id }))
          .sort(byChannelAndMethod),
        [
          // The agent's call, answered with the link; the run Continue made, once, as the approver
          // (channel `admin`), committed with the decision; the agent's identical call, given the outcome.
          { channel: 'mcp', method: 'tools/call', outcome: 'success', user_id: 'will' },
          { channel: 'admin', method: 'tools/call', outcome: 'success', user_id: APPROVER },
          { channel: 'admin', method: 'approval/continue', outcome: 'success', user_id: APPROVER },
          { channel: 'mcp', method: 'tools/call', outcome: 'success', user_id: 'will' },
        ].sort(byChannelAndMethod),
      );
    });

    it('a stream-mode session opened on one replica continues on the other, through Redis', async () => {
      const [first, second] = replicas;
      lb!.routeTo(first.port);
      const { client: opener, transport } = await client2025(writeToken);
      const sessionId = transport.sessionId;
      assert.ok(sessionId, 'stream mode gives a 2025-era client a session');
      lb!.routeTo(second.port);
      const { client: continued } = await client2025(writeToken, sessionId);
      try {
        const result = await continued.callTool({ name: 'tickets_create', arguments: { title: 'on the other replica' } });
        assert.notEqual(result.isError, true, JSON.stringify(result));
      } finally {
        await continued.close();
        await opener.close();
        lb!.routeTo(first.port);
      }
      assert.deepEqual(
        (await ticketsTitled('on the other replica')).map((row) => row.created_via),
        ['mcp'],
      );
    });

    it('a background task completes once after kill -9 of the replica running it; the other replica takes it', async () => {
      const name = `report-${randomUUID()}`;
      const { client } = await client2025(readToken);
      let jobId: string;
      try {
        const queued = envelopeOf(await client.callTool({ name: 'reports_create', arguments: { name } }));
        assert.equal(queued.status, 'queued', JSON.stringify(queued));
        jobId = queued.data.jobId;
      } finally {
        await client.close();
      }
      const started = `Report "${name}" started`;
      const runner = await eventually(
        async () => replicas.find((replica) => replica.output.join('').includes(started)),
        30_000,
        'a replica to start the report',
      );
      const survivor = replicas.find((replica) => replica !== runner)!;
      runner.child.kill('SIGKILL');
      lb!.routeTo(survivor.port);

      const { client: follower } = await client2025(readToken);
      try {
        const job = await eventually(
          async () => {
            const answer = envelopeOf(await follower.callTool({ name: 'reports_job_get', arguments: { job_id: jobId } }));
            return answer.data?.status === 'completed' ? answer.data : undefined;
          },
          TASK_MAX_RUN_MS + 45_000,
          'the survivor to complete the report',
        );
        assert.equal(job.result.data.name, name, JSON.stringify(job));
      } finally {
        await follower.close();
      }
      assert.ok(survivor.output.join('').includes(started), 'the survivor ran it again');
      const { rows } = await db!.query<{ created_via: string }>('SELECT created_via FROM reports WHERE name = $1', [name]);
      assert.deepEqual(
        rows.map((row) => row.created_via),
        ['mcp'],
      );
      const { rows: tasks } = await db!.query<{ status: string; attempts: number }>(
        `SELECT status, attempts FROM mcp_tasks WHERE arguments->>'name' = $1`,
        [name],
      );
      assert.deepEqual(tasks, [{ status: 'completed', attempts: 2 }]);
      assert.deepEqual(
        (await auditOf('reports_create')).filter((row) => row.arguments.name === name).map((row) => row.outcome),
        ['queued', 'success'],
      );
    });
  },
);
