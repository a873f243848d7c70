import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
// The core's fresh-app helpers: every package's install test builds its app the same way.
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
} from '../../../nest-mcp/test/support/fresh-app.js';
import { RedisConnection } from '../../src/index.js';
import { runPrefix, TEST_REDIS_URL } from '../support/test-redis.js';

/**
 * @nest-mcp/redis in an app that is not ours: `npm pack` builds (prepack) and packs @nest-mcp/core
 * and @nest-mcp/redis, a new ESM Nest app in a temporary folder outside the repository installs
 * both tarballs and their peers with npm, takes the README's module code as it is (`McpRedisModule`
 * + `mcpRedisStreamExtensions()` in stream mode), compiles with tsc and runs as two replicas on one
 * Redis, under a key prefix of this run. Then, through the wire only: a session opened by
 * `initialize` on one replica is served by the other (and by neither for another caller); a
 * resource change announced on one replica reaches the GET stream a client holds on the other; a
 * question a call asks on one replica is answered through the other.
 */

/** The app's dependencies besides the two tarballs and a Nest app's own. */
const PEERS = ['@redis/client', '@modelcontextprotocol/server'];

const APP_FILES: Record<string, string> = {
  ...appScaffold('redis-app'),
  // The application's own capabilities: a resource clients subscribe to, a tool that asks the client.
  'src/status.tools.ts': `
import { Injectable } from '@nestjs/common';
import { McpResource, McpTool, type McpInvocation } from '@nest-mcp/core';

@Injectable()
export class StatusTools {
  @McpResource({ uri: 'demo://status', name: 'status', mimeType: 'text/plain', description: 'A status that changes.' })
  status() {
    return 'green';
  }

  @McpTool({ name: 'ask_name', description: 'Asks the user for a name.', annotations: { readOnlyHint: true } })
  async askName(_input: undefined, invocation: McpInvocation) {
    const answer = await invocation.elicit({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    return { content: [{ type: 'text' as const, text: answer.action === 'accept' ? 'Hello ' + String(answer.content?.name) : answer.action }] };
  }
}
`,
  // A REST write's announcement, as an application makes it after its write committed.
  'src/status.controller.ts': `
import { Controller, HttpCode, Post } from '@nestjs/common';
import { McpResourceUpdates } from '@nest-mcp/core';

@Controller('status')
export class StatusController {
  constructor(private readonly updates: McpResourceUpdates) {}

  @Post('changed')
  @HttpCode(204)
  async changed(): Promise<void> {
    await this.updates.changed('demo://status');
  }
}
`,
  // The README's module (src/readme.module.ts, written from the README below) in the app's root module.
  'src/app.module.ts': `
import { Module } from '@nestjs/common';
import { AppModule as ReadmeModule } from './readme.module.js';
import { StatusController } from './status.controller.js';
import { StatusTools } from './status.tools.js';

@Module({ imports: [ReadmeModule], controllers: [StatusController], providers: [StatusTools] })
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

/** A raw POST of one JSON-RPC request in a 2025-era session. */
function postInSession(url: string, sessionId: string, body: unknown, authorization: string) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify(body),
  });
}

describe('@nest-mcp/redis installed from its tarball in an app that follows the README, as two replicas on one Redis', () => {
  const keyPrefix = runPrefix('redis-app');
  let work: string | undefined;
  let app: string;
  let a: ChildProcess | undefined;
  let b: ChildProcess | undefined;
  let urlA: string;
  let urlB: string;
  let redisFiles: string[] = [];
  let redis: RedisConnection | undefined;
  const output: string[] = [];

  before(async () => {
    work = mkdtempSync(join(realpathSync(tmpdir()), 'nest-mcp-redis-app-'));
    const packages = join(work, 'packages');
    mkdirSync(packages);
    // The core first: the redis package's build compiles against the core's built declarations.
    const core = pack('packages/nest-mcp', packages);
    const redisPackage = pack('packages/nest-mcp-redis', packages);
    redisFiles = redisPackage.files;

    app = join(work, 'app');
    writeFiles(app, APP_FILES);
    install(app, [core.tarball, redisPackage.tarball, ...[...NEST_APP_PEERS, ...PEERS].map(atInstalledVersion)]);
    // The README's module, its code block as is, from the installed package.
    const readme = readFileSync(join(app, 'node_modules', '@nest-mcp', 'redis', 'README.md'), 'utf8');
    writeFileSync(join(app, 'src', 'readme.module.ts'), readmeCode(readme, '## The module'));
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], app);

    // Two replicas of the app on one Redis, as behind a load balancer.
    const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: keyPrefix, REQUEST_STATE_SECRET: randomBytes(32).toString('hex') };
    ({ child: a, url: urlA } = await boot(app, output, env));
    ({ child: b, url: urlB } = await boot(app, [], env));
    redis = new RedisConnection(TEST_REDIS_URL, keyPrefix);
    await redis.connect();
  });

  after(async () => {
    await Promise.all([stop(a), stop(b)]);
    if (redis) {
      const keys = await redis.commands.keys(`${keyPrefix}:*`);
      if (keys.length) await redis.commands.del(keys);
      await redis.close();
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('is installed from the two tarballs into the app, outside the repository', () => {
    assert.ok(!app.startsWith(repo + '/'), `${app} must be outside ${repo}`);
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'));
    assert.match(lock.packages['node_modules/@nest-mcp/core'].resolved, /nest-mcp-core-.*\.tgz$/);
    assert.match(lock.packages['node_modules/@nest-mcp/redis'].resolved, /nest-mcp-redis-.*\.tgz$/);
  });

  it('packs the build, its declarations and the README, and no test, source or source map', () => {
    for (const file of [
      'package.json',
      'README.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/mcp-redis.module.js',
      'dist/rate-limit/redis-rate-limit.store.js',
      'dist/streams/redis-event.store.d.ts',
    ]) {
      assert.ok(redisFiles.includes(file), `${file} is in the tarball`);
    }
    assert.deepEqual(
      redisFiles.filter((file) => /\.spec\.|tsbuildinfo|\.map$|^src\/|^test\//.test(file)),
      [],
    );
    assert.deepEqual(
      redisFiles.filter((file) => !/^dist\/.*\.(js|d\.ts)$/.test(file)),
      ['README.md', 'package.json'],
    );
  });

  it("says at boot that the package fills stream mode's three backends, and where its Redis is", () => {
    const log = output.join('');
    assert.match(log, /sessionStore = RedisSessionStore; eventStore = RedisEventStore; messageBus = RedisMessageBus/);
    assert.match(log, new RegExp(`Redis at redis://\\S+ \\(keys ${keyPrefix}:\\*\\)`));
    assert.doesNotMatch(log, /did not answer/);
  });

  it('a session opened by initialize on one replica is served by the other, and only for its caller', async () => {
    const authorization = 'Bearer replica-token';
    const opener = new SdkClient({ name: 'replica-check', version: '1.0.0' });
    const first = new SdkTransport(new URL(urlA), { requestInit: { headers: { authorization } } });
    await opener.connect(first);
    const sessionId = first.sessionId;
    try {
      assert.ok(sessionId, 'stream mode gives the 2025-era client a session');
      assert.equal(await redis!.commands.exists(`${keyPrefix}:session:${sessionId}`), 1, 'kept in Redis, under the prefix');
      const onB = await postInSession(urlB, sessionId, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, authorization);
      assert.equal(onB.status, 200);
      assert.match(await onB.text(), /ask_name/);
      // Another caller presenting the id is not served.
      const stranger = await postInSession(
        urlB,
        sessionId,
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
        'Bearer someone-else',
      );
      assert.equal(stranger.status, 404);
      // Ended on B, it is unknown on A.
      const ended = await fetch(urlB, {
        method: 'DELETE',
        headers: { authorization, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      });
      assert.equal(ended.status, 204);
      const afterEnd = await postInSession(urlA, sessionId, { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }, authorization);
      assert.equal(afterEnd.status, 404);
    } finally {
      await opener.close().catch(() => undefined);
    }
  });

  it('a resource change announced on one replica reaches the GET stream a client holds on the other', async () => {
    const authorization = 'Bearer subscriber-token';
    const client = new SdkClient({ name: 'subscriber', version: '1.0.0' });
    const transport = new SdkTransport(new URL(urlA), { requestInit: { headers: { authorization } } });
    // The client opens its GET stream on A after initialize; it subscribes through B.
    await client.connect(transport);
    try {
      const updated = new Promise<string>((resolve) =>
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => resolve(notification.params.uri)),
      );
      const subscribed = await postInSession(
        urlB,
        transport.sessionId!,
        { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'demo://status' } },
        authorization,
      );
      assert.equal(subscribed.status, 200, await subscribed.text());
      // Announced on B (a REST write there), until it arrives: the GET stream on A may still be opening.
      const announce = () => fetch(urlB.replace(/\/mcp$/, '/status/changed'), { method: 'POST' });
      assert.equal((await announce()).status, 204);
      const timer = setInterval(() => void announce(), 250);
      try {
        assert.equal(await updated, 'demo://status');
      } finally {
        clearInterval(timer);
      }
    } finally {
      await client.close();
    }
  });

  it('a question a call asks on one replica is answered through the other', async () => {
    const served: string[] = [];
    /** A load balancer in the client: the client's answers go to B, everything else to A. */
    const balancer = (url: string | URL, init: RequestInit = {}) => {
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      const isAnswer = !!body && !('method' in body);
      served.push(`${isAnswer ? 'B' : 'A'} ${body ? String(body.method ?? 'answer') : (init.method ?? 'GET')}`);
      return fetch(String(url).replace(urlA, isAnswer ? urlB : urlA), init);
    };
    const client = new SdkClient({ name: 'answering', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => Promise.resolve({ action: 'accept' as const, content: { name: 'Lin' } }));
    await client.connect(new SdkTransport(new URL(urlA), { fetch: balancer, requestInit: { headers: { authorization: 'Bearer asker' } } }));
    try {
      const result = await client.callTool({ name: 'ask_name', arguments: {} });
      assert.deepEqual((result.content as Array<{ type: string; text: string }>)[0], { type: 'text', text: 'Hello Lin' });
      assert.ok(served.includes('A tools/call') && served.includes('B answer'), served.join(', '));
    } finally {
      await client.close();
    }
  });
});
