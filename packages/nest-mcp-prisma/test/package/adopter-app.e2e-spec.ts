import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pg from 'pg';
// The core's fresh-app helpers: both packages' install tests build their app the same way.
import {
  appDatabase,
  appScaffold,
  type AppDatabase,
  atInstalledVersion,
  boot,
  install,
  NEST_APP_PEERS,
  pack,
  prismaGenerate,
  repo,
  run,
  stop,
  tsc,
  writeFiles,
} from '../../../nest-mcp/test/support/fresh-app.js';

/**
 * @nest-mcp/prisma in an app that is not ours: `npm pack` builds (prepack) and packs @nest-mcp/core
 * and @nest-mcp/prisma, a new ESM Nest app in a temporary folder outside the repository installs
 * both tarballs and their peers with npm, follows the package's README (its tables beside the app's
 * schema, `McpPrismaModule` + `mcpPrismaExtensions()`, a Prisma client on `McpDatabase.pool` with
 * `channelStampExtension`), generates its client, compiles with tsc and boots on a database of its
 * own. Then: an MCP write commits with its audit row and is stamped `mcp`, a refused one leaves no
 * write and one audit row, a keyed retry runs once (also when concurrent), and REST writes are
 * stamped `api`.
 */

/** The app's dependencies besides the two tarballs and a Nest app's own. */
const PEERS = ['@modelcontextprotocol/server', '@prisma/client', '@prisma/adapter-pg', 'pg', '@types/pg', 'prisma'];

const APP_FILES: Record<string, string> = {
  ...appScaffold('adopter-app'),
  // The app's own schema: a folder of .prisma files (README step 1), nest-mcp.prisma is copied beside it.
  'prisma/schema/app.prisma': `
generator client {
  provider     = "prisma-client"
  output       = "../../src/generated/prisma"
  moduleFormat = "esm"
}

datasource db {
  provider = "postgresql"
}

model Note {
  id         String @id @default(uuid())
  title      String
  createdVia String @default(dbgenerated()) @map("created_via")
  updatedVia String @default(dbgenerated()) @map("updated_via")

  @@map("notes")
}
`,
  'src/note.dto.ts': `
import { IsOptional, IsString, MinLength } from 'class-validator';

export class NoteDto {
  @IsString()
  @MinLength(1)
  title!: string;

  /** A retry with the same key gets the first answer (the layer's idempotency keys). */
  @IsOptional()
  @IsString()
  idempotency_key?: string;
}
`,
  'src/notes.controller.ts': `
import { BadRequestException, Body, Controller, Post } from '@nestjs/common';
import { McpTool } from '@nest-mcp/core';
import { NoteDto } from './note.dto.js';
import { PrismaService } from './prisma.service.js';

@Controller('notes')
export class NotesController {
  constructor(private readonly prisma: PrismaService) {}

  @Post()
  @McpTool({ name: 'notes_create', description: 'Adds a note.' })
  create(@Body() dto: NoteDto) {
    return this.prisma.client.note.create({ data: { title: dto.title } });
  }

  @Post('failing')
  @McpTool({ name: 'notes_create_failing', description: 'Adds a note, then refuses.' })
  async createThenRefuse(@Body() dto: NoteDto) {
    await this.prisma.client.note.create({ data: { title: dto.title } });
    throw new BadRequestException('refused after writing');
  }
}
`,
  // README step 2 with stream mode on several replicas (its own README section), plus McpRestModule
  // (the REST half of a tool: its DTO validated on the route). Replicas share requestState's secret.
  'src/app.module.ts': `
import { Module } from '@nestjs/common';
import { McpModule, McpRestModule } from '@nest-mcp/core';
import { McpPrismaModule, mcpPrismaExtensions, mcpPrismaStreamExtensions } from '@nest-mcp/prisma';
import { NotesController } from './notes.controller.js';
import { PrismaService } from './prisma.service.js';

@Module({
  imports: [
    McpPrismaModule.forRoot({ connection: { url: process.env.DATABASE_URL! }, streams: {} }),
    McpModule.forRoot({
      serverInfo: { name: 'adopter-app', version: '1.0.0' },
      streams: true,
      requestState: { secret: process.env.REQUEST_STATE_SECRET! },
      ...mcpPrismaExtensions(),
      ...mcpPrismaStreamExtensions(),
    }),
    McpRestModule,
  ],
  controllers: [NotesController],
  providers: [PrismaService],
})
export class AppModule {}
`,
};

/**
 * The code block of a README section (its first ```ts block after `heading`): the app copies the
 * README's code rather than a paraphrase of it, so the test follows the README as it is.
 */
function readmeCode(readme: string, heading: string): string {
  const at = readme.indexOf(heading);
  const block = at < 0 ? null : /```ts\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(block, `the README has a ts code block under "${heading}"`);
  return block[1];
}

/** The app's own table, as `prisma migrate` would make it from app.prisma. */
const NOTES_TABLE = `
CREATE TABLE "notes" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "created_via" TEXT NOT NULL,
    "updated_via" TEXT NOT NULL,
    CONSTRAINT "notes_pkey" PRIMARY KEY ("id")
);`;

/** The envelope a tool answers with (its first text content, as JSON). */
const envelopeOf = (result: { content?: unknown }) => JSON.parse((result.content as Array<{ text: string }>)[0].text);

interface NoteRow {
  id: string;
  title: string;
  created_via: string;
  updated_via: string;
}

describe(
  '@nest-mcp/prisma installed from its tarball in an app that follows the README',
  { skip: process.env.DATABASE_URL ? false : 'needs DATABASE_URL (a PostgreSQL server)' },
  () => {
    let work: string | undefined;
    let app: string;
    let database: AppDatabase | undefined;
    let db: pg.Client | undefined;
    let server: ChildProcess | undefined;
    let replica: ChildProcess | undefined;
    let url: string;
    let replicaUrl: string;
    let prismaFiles: string[] = [];
    const output: string[] = [];

    before(async () => {
      work = mkdtempSync(join(realpathSync(tmpdir()), 'nest-mcp-prisma-adopter-'));
      const packages = join(work, 'packages');
      mkdirSync(packages);
      // The core first: the prisma package's build compiles against the core's built declarations.
      const core = pack('packages/nest-mcp', packages);
      const prisma = pack('packages/nest-mcp-prisma', packages);
      prismaFiles = prisma.files;

      app = join(work, 'app');
      writeFiles(app, APP_FILES);
      install(app, [core.tarball, prisma.tarball, ...[...NEST_APP_PEERS, ...PEERS].map(atInstalledVersion)]);

      const installedPackage = join(app, 'node_modules', '@nest-mcp', 'prisma');
      // README step 1: the package's tables beside the app's own schema file.
      copyFileSync(join(installedPackage, 'prisma', 'nest-mcp.prisma'), join(app, 'prisma', 'schema', 'nest-mcp.prisma'));
      // README step 3: the Prisma client on the package's pool, the README's code block as is.
      const readme = readFileSync(join(installedPackage, 'README.md'), 'utf8');
      writeFileSync(join(app, 'src', 'prisma.service.ts'), readmeCode(readme, '## 3. Your Prisma client'));
      prismaGenerate(app, work);
      run(process.execPath, [tsc, '-p', 'tsconfig.json'], app);

      // The app's database. Where the README says `prisma migrate dev`, the tables are created from
      // SQL: the migrate commands need Prisma's native schema engine, which cannot be downloaded
      // here. The package's own SQL (prisma/nest-mcp.sql, "the same tables", from the installed
      // package) plus what migrate would make of the app's Note model.
      database = await appDatabase('adopter', [readFileSync(join(installedPackage, 'prisma', 'nest-mcp.sql'), 'utf8'), NOTES_TABLE]);
      db = database.client;

      // Two replicas of the app on its one database, as behind a load balancer.
      const env = { DATABASE_URL: database.url, REQUEST_STATE_SECRET: randomBytes(32).toString('hex') };
      ({ child: server, url } = await boot(app, output, env));
      ({ child: replica, url: replicaUrl } = await boot(app, [], env));
    });

    after(async () => {
      await Promise.all([stop(server), stop(replica)]);
      await database?.drop();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    const notesTitled = async (title: string) =>
      (await db!.query<NoteRow>('SELECT id, title, created_via, updated_via FROM notes WHERE title = $1', [title])).rows;
    const auditRowsOf = async (target: string, title: string) =>
      (
        await db!.query(
          `SELECT channel, method, target, outcome, error_code, client_name FROM mcp_audit_events
           WHERE target = $1 AND arguments->>'title' = $2`,
          [target, title],
        )
      ).rows;

    /** A client of the 2026-07-28 era (the official 2.x client, pinned), connected to the app. */
    async function client2026(): Promise<Client> {
      const client = new Client({ name: 'adopter-check', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    }

    it('is installed from the two tarballs into the app, outside the repository', () => {
      assert.ok(!app.startsWith(repo + '/'), `${app} must be outside ${repo}`);
      const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'));
      assert.match(lock.packages['node_modules/@nest-mcp/core'].resolved, /nest-mcp-core-.*\.tgz$/);
      assert.match(lock.packages['node_modules/@nest-mcp/prisma'].resolved, /nest-mcp-prisma-.*\.tgz$/);
    });

    it('packs the build, its declarations, the schema file and its SQL, and no test or source file', () => {
      for (const file of [
        'package.json',
        'README.md',
        'dist/index.js',
        'dist/index.d.ts',
        'prisma/nest-mcp.prisma',
        'prisma/nest-mcp.sql',
      ]) {
        assert.ok(prismaFiles.includes(file), `${file} is in the tarball`);
      }
      assert.deepEqual(
        prismaFiles.filter((file) => /\.spec\.|tsbuildinfo|^src\/|^test\//.test(file)),
        [],
      );
    });

    it("says at boot that the package fills the call hook, the three stores and stream mode's three backends", () => {
      const log = output.join('');
      assert.match(log, /Extension points: .*callHook = McpAuditHook;/);
      assert.match(log, /idempotencyStore = PrismaIdempotencyStore;/);
      assert.match(log, /requestStateStore = PrismaRequestStateStore;/);
      assert.match(log, /clientInfoStore = PrismaClientInfoStore[;\n]/);
      assert.match(log, /sessionStore = PostgresSessionStore; eventStore = PostgresEventStore; messageBus = PostgresMessageBus/);
    });

    it('an MCP write commits stamped created_via mcp, with its audit row', async () => {
      const client = await client2026();
      try {
        const result = await client.callTool({ name: 'notes_create', arguments: { title: 'over MCP' } });
        assert.notEqual(result.isError, true, JSON.stringify(result));
        assert.equal(envelopeOf(result).data.createdVia, 'mcp');
      } finally {
        await client.close();
      }
      const notes = await notesTitled('over MCP');
      assert.equal(notes.length, 1);
      assert.equal(notes[0].created_via, 'mcp');
      assert.equal(notes[0].updated_via, 'mcp');
      assert.deepEqual(
        (await auditRowsOf('notes_create', 'over MCP')).map(({ channel, method, target, outcome }) => ({
          channel,
          method,
          target,
          outcome,
        })),
        [{ channel: 'mcp', method: 'tools/call', target: 'notes_create', outcome: 'success' }],
      );
    });

    it('a call that fails after writing leaves no write and one audit row saying so', async () => {
      const client = await client2026();
      try {
        const result = await client.callTool({ name: 'notes_create_failing', arguments: { title: 'refused' } });
        assert.equal(result.isError, true, JSON.stringify(result));
        assert.match(JSON.stringify(envelopeOf(result)), /refused after writing/);
      } finally {
        await client.close();
      }
      assert.deepEqual(await notesTitled('refused'), []);
      const audit = await auditRowsOf('notes_create_failing', 'refused');
      // The thrown 400 reaches the hook as an isError result (docs/tools.md: a thrown 4xx is a tool
      // error), so the row is `failed` with the envelope's code, not classifyFailure's `error`.
      assert.deepEqual(
        audit.map(({ channel, outcome, error_code }) => ({ channel, outcome, error_code })),
        [{ channel: 'mcp', outcome: 'failed', error_code: 'invalid_argument' }],
      );
    });

    it('a retried call with an idempotency key runs once, sequential or concurrent', async () => {
      const client = await client2026();
      try {
        const call = (key: string, title: string) => client.callTool({ name: 'notes_create', arguments: { title, idempotency_key: key } });
        const first = await call('key-1', 'once');
        const again = await call('key-1', 'once');
        assert.notEqual(first.isError, true, JSON.stringify(first));
        assert.deepEqual(again, first);
        assert.equal((await notesTitled('once')).length, 1);

        const answers = await Promise.all(Array.from({ length: 10 }, () => call('key-2', 'once, concurrently')));
        assert.notEqual(answers[0].isError, true, JSON.stringify(answers[0]));
        for (const answer of answers) assert.deepEqual(answer, answers[0]);
        assert.equal((await notesTitled('once, concurrently')).length, 1);
      } finally {
        await client.close();
      }
    });

    it('the same route over REST writes a note stamped created_via api', async () => {
      const response = await fetch(url.replace(/\/mcp$/, '/notes'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'over REST' }),
      });
      assert.equal(response.status, 201);
      assert.equal(((await response.json()) as { createdVia: string }).createdVia, 'api');
      const notes = await notesTitled('over REST');
      assert.equal(notes.length, 1);
      assert.equal(notes[0].created_via, 'api');
    });

    it('a 2025-era client (the 1.x SDK) writes stamped created_via mcp too, audited under the name its initialize gave', async () => {
      const client = new SdkClient({ name: 'adopter-check-v1', version: '1.0.0' });
      // A credential makes the caller known (the core's callerKey), who owns the session. Nothing checks the token here.
      await client.connect(new SdkTransport(new URL(url), { requestInit: { headers: { authorization: 'Bearer adopter-token' } } }));
      try {
        const result = await client.callTool({ name: 'notes_create', arguments: { title: 'over MCP, 2025 era' } });
        assert.notEqual(result.isError, true, JSON.stringify(result));
      } finally {
        await client.close();
      }
      const notes = await notesTitled('over MCP, 2025 era');
      assert.equal(notes.length, 1);
      assert.equal(notes[0].created_via, 'mcp');
      assert.deepEqual(
        (await auditRowsOf('notes_create', 'over MCP, 2025 era')).map(({ channel, outcome, client_name }) => ({
          channel,
          outcome,
          client_name,
        })),
        [{ channel: 'mcp', outcome: 'success', client_name: 'adopter-check-v1' }],
      );
      // Stream mode: the name lives with the client's session, in the shared table.
      const { rows: sessions } = await db!.query("SELECT client_info->>'name' AS name FROM mcp_sessions");
      assert.ok(
        sessions.some((row: { name: string }) => row.name === 'adopter-check-v1'),
        JSON.stringify(sessions),
      );
    });

    it('a session opened on one replica is served by the other (stream mode in PostgreSQL), and only for its caller', async () => {
      const headers = { authorization: 'Bearer replica-token' };
      const opener = new SdkClient({ name: 'replica-check', version: '1.0.0' });
      const first = new SdkTransport(new URL(url), { requestInit: { headers } });
      await opener.connect(first);
      const sessionId = first.sessionId;
      assert.ok(sessionId, 'stream mode gives the 2025-era client a session');
      // The same session, continued on the other replica without a new initialize (as a load balancer would route it).
      const continued = new SdkClient({ name: 'replica-check', version: '1.0.0' });
      await continued.connect(new SdkTransport(new URL(replicaUrl), { sessionId, requestInit: { headers } }));
      try {
        const result = await continued.callTool({ name: 'notes_create', arguments: { title: 'on the other replica' } });
        assert.notEqual(result.isError, true, JSON.stringify(result));
        const notes = await notesTitled('on the other replica');
        assert.deepEqual(
          notes.map((note) => note.created_via),
          ['mcp'],
        );
        // Another caller presenting the id is not served, on either replica.
        const stranger = await fetch(replicaUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: 'Bearer someone-else',
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
        });
        assert.equal(stranger.status, 404);
      } finally {
        await continued.close();
        await opener.close();
      }
    });
  },
);
