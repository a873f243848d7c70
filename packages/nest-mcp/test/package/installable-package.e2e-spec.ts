import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, InsufficientScopeError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  appScaffold,
  atInstalledVersion,
  boot,
  install,
  NEST_APP_PEERS,
  pack,
  repo,
  run,
  stop,
  tsc,
  writeFiles,
} from '../support/fresh-app.js';

/**
 * The MCP layer as a package an existing Nest app installs: `npm pack -w packages/nest-mcp` builds
 * (prepack) and packs it, a minimal Nest app is written in a temporary folder outside the repository, installs
 * the tarball and its peers with npm (from npm's cache when it has them, else the registry),
 * compiles with tsc, boots, and serves one @McpTool with a DTO to both official clients.
 */

const APP_FILES: Record<string, string> = {
  ...appScaffold('existing-nest-app'),
  'src/greet.dto.ts': `
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export class GreetDto {
  /** Who to greet. */
  @IsString()
  @MinLength(1)
  @MaxLength(40)
  name!: string;

  @IsOptional()
  @IsIn(['en', 'es'])
  language?: 'en' | 'es';
}
`,
  'src/greeting.tools.ts': `
import { Injectable } from '@nestjs/common';
import { McpTool, type McpInvocation } from '@nest-mcp/core';
import { GreetDto } from './greet.dto.js';

@Injectable()
export class GreetingTools {
  @McpTool({ description: 'Greets a person by name.', annotations: { readOnlyHint: true } })
  greet(input: GreetDto, invocation: McpInvocation) {
    const greeting = input.language === 'es' ? 'Hola' : 'Hello';
    return { message: \`\${greeting}, \${input.name}!\`, era: invocation.era };
  }
}
`,
  'src/note.dto.ts': `
import { Type } from 'class-transformer';
import { IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';

export class AuthorDto {
  @IsString()
  name!: string;
}

export class NoteDto {
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  title!: string;

  /** Required: no @IsOptional(). */
  @ValidateNested()
  @Type(() => AuthorDto)
  author!: AuthorDto;
}
`,
  'src/notes.controller.ts': `
import { Body, Controller, Post } from '@nestjs/common';
import { McpTool } from '@nest-mcp/core';
import { NoteDto } from './note.dto.js';

@Controller('notes')
export class NotesController {
  @Post()
  @McpTool({ description: 'Adds a note.', scopes: ['notes:write'] })
  create(@Body() dto: NoteDto) {
    return { created: dto.title, by: dto.author.name };
  }
}
`,
  'src/reports.controller.ts': `
import { Body, Controller, Get, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { IsString } from 'class-validator';
import { McpCtx, McpTasks, McpTool, type McpInvocation } from '@nest-mcp/core';

export class ReportDto {
  @IsString()
  title!: string;
}

@Controller()
export class ReportsController {
  constructor(private readonly tasks: McpTasks) {}

  @Post('reports')
  @McpTool({ name: 'report_build', description: 'Builds a report (long: queued).', task: 'background' })
  async build(@Body() dto: ReportDto, @McpCtx() invocation: McpInvocation) {
    // Long work: still running when the server stops, which aborts it.
    await new Promise((resolve) => invocation.signal?.addEventListener('abort', resolve, { once: true }));
    invocation.signal?.throwIfAborted();
    return { title: dto.title };
  }

  @Get('jobs/:job_id')
  @McpTool({ name: 'job_get', description: 'The status of a queued job.', annotations: { readOnlyHint: true } })
  async job(@Param('job_id') jobId: string, @Req() request: Request) {
    const job = await this.tasks.job(jobId, request);
    if (!job) throw this.tasks.unknownJob(jobId);
    return job;
  }
}
`,
  // The app's access policy: the token's scopes, here from a header (a stand-in for real tokens).
  'src/header-scopes.policy.ts': `
import { Injectable } from '@nestjs/common';
import { McpInsufficientScopeException } from '@nest-mcp/core';
import type { McpAccessPolicy, McpCapability, McpRequestContext } from '@nest-mcp/core/extensions';

@Injectable()
export class HeaderScopesPolicy implements McpAccessPolicy {
  canUse(capability: McpCapability, context: McpRequestContext): boolean {
    return capability.scopes.every((scope) => this.granted(context).includes(scope));
  }
  refuse(capability: McpCapability, context: McpRequestContext): Error {
    return new McpInsufficientScopeException([...new Set([...this.granted(context), ...capability.scopes])]);
  }
  private granted(context: McpRequestContext): string[] {
    return String(context.httpRequest.headers['x-scopes'] ?? '').split(' ').filter(Boolean);
  }
}
`,
  'src/app.module.ts': `
import { Module } from '@nestjs/common';
import { McpModule, McpRestModule } from '@nest-mcp/core';
import { GreetingTools } from './greeting.tools.js';
import { HeaderScopesPolicy } from './header-scopes.policy.js';
import { NotesController } from './notes.controller.js';
import { ReportsController } from './reports.controller.js';

@Module({
  imports: [
    McpModule.forRoot({
      serverInfo: { name: 'existing-nest-app', version: '1.0.0' },
      accessPolicy: { useClass: HeaderScopesPolicy },
      tasks: { jobTool: 'job_get' },
    }),
    McpRestModule, // the REST half: scopes enforced by the access policy, DTOs validated
  ],
  controllers: [NotesController, ReportsController],
  providers: [GreetingTools],
})
export class AppModule {}
`,
};

describe('the MCP layer installed as a package in an existing Nest app', () => {
  let work: string;
  let app: string;
  let server: ChildProcess | undefined;
  let url: string;
  let packedFiles: string[] = [];
  const output: string[] = [];

  before(async () => {
    work = mkdtempSync(join(realpathSync(tmpdir()), 'nest-mcp-install-'));
    mkdirSync(join(work, 'package'));
    // As the README says: the workspace's tarball, built by its prepack script.
    const packed = pack('packages/nest-mcp', join(work, 'package'));
    packedFiles = packed.files;
    app = join(work, 'app');
    writeFiles(app, APP_FILES);
    install(app, [packed.tarball, ...NEST_APP_PEERS.map(atInstalledVersion)]);
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], app);
    ({ child: server, url } = await boot(app, output));
  });

  after(async () => {
    await stop(server);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('is installed from the tarball into the app, outside the repository', () => {
    assert.ok(!app.startsWith(repo + '/'), `${app} must be outside ${repo}`);
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules', '@nest-mcp', 'core', 'package.json'), 'utf8'));
    assert.equal(manifest.name, '@nest-mcp/core');
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'));
    assert.match(lock.packages['node_modules/@nest-mcp/core'].resolved, /nest-mcp-core-.*\.tgz$/);
  });

  it('packs the build, its declarations, the testing entry and the docs, and no test or source file', () => {
    for (const file of [
      'package.json',
      'README.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/testing/index.js',
      'dist/testing/index.d.ts',
    ]) {
      assert.ok(packedFiles.includes(file), `${file} is in the tarball`);
    }
    assert.ok(packedFiles.some((file) => file.startsWith('docs/')));
    assert.deepEqual(
      packedFiles.filter((file) => /\.spec\.|__snapshots__|tsbuildinfo|^src\/|^test\//.test(file)),
      [],
    );
  });

  it("says at boot which implementation fills each extension point (the app's policy, the in-process defaults)", () => {
    const log = output.join('');
    assert.match(log, /Extension points: accessPolicy = HeaderScopesPolicy;/);
    assert.match(log, /idempotencyStore = InMemoryIdempotencyStore \(default: in memory, one process only\)/);
  });

  it('serves the tool to the 2026-07-28 official client (@modelcontextprotocol/client, pinned)', async () => {
    const client = new Client({ name: 'install-check', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const { tools } = await client.listTools();
      const greet = tools.find((tool) => tool.name === 'greet');
      assert.ok(greet, 'greet is listed');
      assert.deepEqual(greet.inputSchema.required, ['name']);
      const result = await client.callTool({ name: 'greet', arguments: { name: 'Ana', language: 'es' } });
      assert.notEqual(result.isError, true);
      const envelope = JSON.parse((result.content as Array<{ text: string }>)[0].text);
      assert.deepEqual(envelope.data, { message: 'Hola, Ana!', era: 'stateless' });
    } finally {
      await client.close();
    }
  });

  it('serves the tool to the 2025-era official SDK client (@modelcontextprotocol/sdk 1.x), DTO validation included', async () => {
    const client = new SdkClient({ name: 'install-check-v1', version: '1.0.0' });
    await client.connect(new SdkTransport(new URL(url)));
    try {
      const result = await client.callTool({ name: 'greet', arguments: { name: 'Ana' } });
      const envelope = JSON.parse((result.content as Array<{ text: string }>)[0].text);
      assert.deepEqual(envelope.data, { message: 'Hello, Ana!', era: 'handshake' });

      const refused = await client.callTool({ name: 'greet', arguments: { name: 'Ana', language: 'fr' } });
      assert.equal(refused.isError, true);
      const errors = JSON.parse((refused.content as Array<{ text: string }>)[0].text).errors;
      assert.equal(errors[0].field, 'language');
    } finally {
      await client.close();
    }
  });

  describe('McpRestModule, one line in the app module: the REST route of a tool', () => {
    const notes = (headers: Record<string, string>, body: unknown) =>
      fetch(url.replace(/\/mcp$/, '/notes'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });

    const author = { name: 'Ana' };

    it("is refused without the tool's scope: 403 with the step-up challenge of the app's policy", async () => {
      const response = await notes({ 'x-scopes': 'notes:read' }, { title: 'Hi', author });
      assert.equal(response.status, 403);
      assert.equal(response.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="notes:read notes:write"');
      assert.equal(((await response.json()) as { error: string }).error, 'insufficient_scope');
    });

    it('with the scope and an invalid body: 400 naming the field', async () => {
      const response = await notes({ 'x-scopes': 'notes:write' }, { title: '', author, extra: 1 });
      assert.equal(response.status, 400);
      const body = (await response.json()) as { errors: Array<{ field: string }>; message: string[] };
      assert.deepEqual(body.errors.map((error) => error.field).sort(), ['extra', 'title']);
      assert.ok(
        body.message.some((message) => message.startsWith('`title` must be longer than or equal to 1')),
        JSON.stringify(body),
      );
    });

    it('with the scope and no required nested object: 400 naming it as missing, as over MCP (not the 500 of the handler reading it)', async () => {
      const response = await notes({ 'x-scopes': 'notes:write' }, { title: 'Hi' });
      assert.equal(response.status, 400);
      const body = (await response.json()) as { errors: unknown[]; message: string[] };
      assert.deepEqual(body.message, ['`author` is missing']);
      assert.deepEqual(body.errors, [{ code: 'invalid_argument', field: 'author', message: '`author` is missing', retryable: false }]);
      const notObject = await notes({ 'x-scopes': 'notes:write' }, { title: 'Hi', author: 'Ana' });
      assert.equal(notObject.status, 400);
      assert.deepEqual(((await notObject.json()) as { message: string[] }).message, ['`author` must be an object']);
    });

    it('with the scope and a valid body: 201', async () => {
      const response = await notes({ 'x-scopes': 'notes:write' }, { title: 'Hi', author });
      assert.equal(response.status, 201);
      assert.deepEqual(await response.json(), { created: 'Hi', by: 'Ana' });
    });

    it('over MCP the same tool without the scope is the step-up challenge, reported by the 2.x client as InsufficientScopeError', async () => {
      const client = new Client({ name: 'install-check', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'x-scopes': 'notes:read' } } }));
      try {
        await assert.rejects(client.callTool({ name: 'create', arguments: { title: 'Hi', author } }), InsufficientScopeError);
      } finally {
        await client.close();
      }
    });
  });

  describe('a background tool on the in-memory defaults, across a restart', () => {
    const base = () => url.replace(/\/mcp$/, '');

    it('REST queues it (202, Location); after a restart the job answers 410 job_lost, over REST and to the agent, and a wrong id 404', async () => {
      const queued = await fetch(`${base()}/reports`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Q3' }),
      });
      assert.equal(queued.status, 202, await queued.clone().text());
      const location = queued.headers.get('location');
      assert.match(location ?? '', /^\/jobs\/[0-9a-f-]{36}$/);
      const jobId = location!.slice('/jobs/'.length);
      assert.equal((await fetch(`${base()}${location}`)).status, 200);

      await stop(server);
      // A log of its own: `boot` waits for a READY line, and the first boot's is in `output`.
      ({ child: server, url } = await boot(app, []));

      const lost = await fetch(`${base()}${location}`);
      assert.equal(lost.status, 410);
      const body = (await lost.json()) as { code: string; message: string };
      assert.equal(body.code, 'job_lost');
      assert.match(body.message, /was lost: .*the server restarted at .*Start the work again/);

      const client = new Client({ name: 'install-check', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        const answer = await client.callTool({ name: 'job_get', arguments: { job_id: jobId } });
        assert.equal(answer.isError, true);
        assert.equal(JSON.parse((answer.content as Array<{ text: string }>)[0].text).errors[0].code, 'job_lost');
      } finally {
        await client.close();
      }

      const wrong = await fetch(`${base()}/jobs/0b8f2f7e-3c1a-4d5e-9f00-1a2b3c4d5e6f`);
      assert.equal(wrong.status, 404);
      assert.match(((await wrong.json()) as { message: string }).message, /was not found among the jobs you started: check the id/);
    });
  });

  it('loads in a CommonJS app too (require(esm)), types included under module nodenext', () => {
    const cjs = join(app, 'cjs');
    mkdirSync(cjs, { recursive: true });
    writeFileSync(join(cjs, 'package.json'), JSON.stringify({ type: 'commonjs' }));
    writeFileSync(
      join(cjs, 'check.ts'),
      [
        "import { McpModule, McpRestModule } from '@nest-mcp/core';",
        "import { callTool } from '@nest-mcp/core/testing';",
        "console.log([typeof McpModule.forRoot, typeof McpRestModule, typeof callTool].join(' '));",
      ].join('\n'),
    );
    writeFileSync(
      join(cjs, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'ES2023',
          types: ['node'],
          strict: true,
          skipLibCheck: true,
        },
        files: ['check.ts'],
      }),
    );
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], cjs);
    assert.match(readFileSync(join(cjs, 'check.js'), 'utf8'), /require\("@nest-mcp\/core"\)/);
    assert.equal(run(process.execPath, ['check.js'], cjs).trim(), 'function function function');
  });
});
