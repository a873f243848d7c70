import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client, InsufficientScopeError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/**
 * The MCP layer as a package an existing Nest app installs: `npm pack -w packages/nest-mcp` builds
 * (prepack) and packs it, a minimal Nest app is written in a temporary folder outside the repository, installs
 * the tarball and its peers with npm (from npm's cache when it has them, else the registry),
 * compiles with tsc, boots, and serves one @McpTool with a DTO to both official clients.
 */

// packages/nest-mcp/test/package/: the repository root is four levels up.
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const installed = (name: string): string => JSON.parse(readFileSync(join(repo, 'node_modules', name, 'package.json'), 'utf8')).version;

/** The app's peers, at the versions the repository runs (so npm's cache usually has them). */
const PEERS = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  'class-validator',
  'class-transformer',
  'reflect-metadata',
  'rxjs',
  '@opentelemetry/api',
  '@types/express',
  '@types/node',
];

const APP_FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'existing-nest-app', private: true, type: 'module' }, null, 2),
  'tsconfig.json': JSON.stringify(
    {
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'ES2023',
        types: ['node'],
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        strict: true,
        skipLibCheck: true,
        outDir: 'dist',
        rootDir: 'src',
      },
      include: ['src'],
    },
    null,
    2,
  ),
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
import { IsString, MaxLength, MinLength } from 'class-validator';

export class NoteDto {
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  title!: string;
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
    return { created: dto.title };
  }
}
`,
  // The app's access policy: the token's scopes, here from a header (a stand-in for real tokens).
  'src/header-scopes.policy.ts': `
import { Injectable } from '@nestjs/common';
import { McpInsufficientScopeException, type McpAccessPolicy, type McpCapability, type McpRequestContext } from '@nest-mcp/core';

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

@Module({
  imports: [
    McpModule.forRoot({ serverInfo: { name: 'existing-nest-app', version: '1.0.0' }, accessPolicy: { useClass: HeaderScopesPolicy } }),
    McpRestModule, // the REST half: scopes enforced by the access policy, DTOs validated
  ],
  controllers: [NotesController],
  providers: [GreetingTools],
})
export class AppModule {}
`,
  'src/main.ts': `
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { useMcpTransport } from '@nest-mcp/core';
import { AppModule } from './app.module.js';

const app = await NestFactory.create(AppModule, { logger: ['log', 'warn', 'error'] });
useMcpTransport(app);
await app.listen(0, '127.0.0.1');
console.log('READY ' + (await app.getUrl()) + '/mcp');
`,
};

/**
 * The environment of a user's shell: without the test runner's NODE_OPTIONS (its SWC hooks and the
 * condition that resolves @nest-mcp/core to this repository's sources).
 */
const USER_ENV = { ...process.env, NODE_OPTIONS: '', npm_config_update_notifier: 'false' };

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: USER_ENV });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed in ${cwd}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Starts the app and resolves with its MCP URL once it prints it; everything it printed is kept. */
function boot(cwd: string, output: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['dist/main.js'], { cwd, env: USER_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolveBoot, reject) => {
    const collect = (chunk: Buffer) => {
      output.push(chunk.toString());
      const ready = /READY (\S+)/.exec(output.join(''));
      if (ready) resolveBoot({ child, url: ready[1].replace('[::1]', '127.0.0.1') });
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (code) => reject(new Error(`the app exited (${code}) before it was ready:\n${output.join('')}`)));
  });
}

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
    const [packed] = JSON.parse(
      run('npm', ['pack', '-w', 'packages/nest-mcp', '--json', '--pack-destination', join(work, 'package')], repo),
    ) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    packedFiles = packed.files.map((file) => file.path);
    const tarball = join(work, 'package', packed.filename);
    app = join(work, 'app');
    for (const [path, text] of Object.entries(APP_FILES)) {
      mkdirSync(dirname(join(app, path)), { recursive: true });
      writeFileSync(join(app, path), text);
    }
    const peers = PEERS.map((name) => `${name}@${installed(name)}`);
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', tarball, ...peers], app);
    run(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], app);
    ({ child: server, url } = await boot(app, output));
  });

  after(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((done) => server!.once('exit', done));
      server.kill('SIGTERM');
      await exited;
    }
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

    it("is refused without the tool's scope: 403 with the step-up challenge of the app's policy", async () => {
      const response = await notes({ 'x-scopes': 'notes:read' }, { title: 'Hi' });
      assert.equal(response.status, 403);
      assert.equal(response.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="notes:read notes:write"');
      assert.equal(((await response.json()) as { error: string }).error, 'insufficient_scope');
    });

    it('with the scope and an invalid body: 400 naming the field', async () => {
      const response = await notes({ 'x-scopes': 'notes:write' }, { title: '', extra: 1 });
      assert.equal(response.status, 400);
      const body = (await response.json()) as { errors: Array<{ field: string }>; message: string[] };
      assert.deepEqual(body.errors.map((error) => error.field).sort(), ['extra', 'title']);
      assert.ok(
        body.message.some((message) => message.startsWith('`title` must be longer than or equal to 1')),
        JSON.stringify(body),
      );
    });

    it('with the scope and a valid body: 201', async () => {
      const response = await notes({ 'x-scopes': 'notes:write' }, { title: 'Hi' });
      assert.equal(response.status, 201);
      assert.deepEqual(await response.json(), { created: 'Hi' });
    });

    it('over MCP the same tool without the scope is the step-up challenge, reported by the 2.x client as InsufficientScopeError', async () => {
      const client = new Client({ name: 'install-check', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'x-scopes': 'notes:read' } } }));
      try {
        await assert.rejects(client.callTool({ name: 'create', arguments: { title: 'Hi' } }), InsufficientScopeError);
      } finally {
        await client.close();
      }
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
    run(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], cjs);
    assert.match(readFileSync(join(cjs, 'check.js'), 'utf8'), /require\("@nest-mcp\/core"\)/);
    assert.equal(run(process.execPath, ['check.js'], cjs).trim(), 'function function function');
  });
});
