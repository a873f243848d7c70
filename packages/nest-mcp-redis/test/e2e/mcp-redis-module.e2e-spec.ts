import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Injectable, type LoggerService, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { McpModule, useMcpTransport } from '@nest-mcp/core';
import { MCP_EVENT_STORE, MCP_MESSAGE_BUS, MCP_SESSION_STORE, type McpEventStore } from '@nest-mcp/core/extensions';
import { callHandshake, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';
import {
  McpRedisModule,
  mcpRedisStreamExtensions,
  RedisConnection,
  RedisEventStore,
  RedisMessageBus,
  RedisSessionStore,
  type McpRedisOptions,
} from '../../src/index.js';
import { tcpProxy } from '../support/tcp-proxy.js';
import { runPrefix, TEST_REDIS_URL } from '../support/test-redis.js';

/**
 * `McpRedisModule` in a Nest app with the layer in stream mode, on the machine's Redis: the three
 * backends behind the layer's extension points, with the module's options; `forRootAsync`; the
 * connection it owns, opened at boot (or not, when Redis does not answer) and closed at shutdown.
 */
function streamsApp(redis: McpRedisOptions) {
  @Module({
    imports: [
      McpRedisModule.forRoot(redis),
      McpModule.forRoot({ serverInfo: { name: 'redis-app', version: '1.0.0' }, streams: true, ...mcpRedisStreamExtensions() }),
    ],
  })
  class StreamsApp {}
  return StreamsApp;
}

async function deleteKeys(connection: RedisConnection): Promise<void> {
  const keys = await connection.commands.keys(`${connection.keyPrefix}:*`);
  if (keys.length) await connection.commands.del(keys);
}

const message = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } });

describe('McpRedisModule with the layer in stream mode (real Redis)', () => {
  const keyPrefix = runPrefix('mcp-module-test');
  let t: McpTestApp;
  let connection: RedisConnection;

  before(async () => {
    t = await startMcpTestApp(streamsApp({ url: TEST_REDIS_URL, keyPrefix, streams: { maxEventsPerStream: 2 } }));
    connection = t.app.get(RedisConnection);
  });
  after(async () => {
    if (connection?.commands.isOpen) await deleteKeys(connection);
    await t?.close();
  });

  it('puts the three Redis backends behind the layer, on the one connection it owns, connected at boot', () => {
    assert.ok(t.app.get(MCP_SESSION_STORE) instanceof RedisSessionStore);
    assert.ok(t.app.get(MCP_EVENT_STORE) instanceof RedisEventStore);
    assert.ok(t.app.get(MCP_MESSAGE_BUS) instanceof RedisMessageBus);
    assert.equal(connection.keyPrefix, keyPrefix);
    assert.equal(connection.commands.isReady, true);
  });

  it('keeps a session opened over the wire in Redis, under the key prefix', async () => {
    const opened = await callHandshake(t.mcpUrl, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'module-test', version: '1.0.0' },
    });
    const sessionId = opened.headers.get('mcp-session-id');
    assert.ok(sessionId, JSON.stringify(opened.body));
    assert.equal(await connection.commands.exists(`${keyPrefix}:session:${sessionId}`), 1);
    const stored = await t.app.get<RedisSessionStore>(MCP_SESSION_STORE).get(sessionId);
    assert.equal(stored?.clientInfo?.name, 'module-test');
  });

  it("bounds each stream's events by the module's streams option", async () => {
    const events = t.app.get<McpEventStore>(MCP_EVENT_STORE);
    const sessionId = crypto.randomUUID();
    const stream = `${sessionId}/get`;
    const ids = [await events.append(stream, message(1)), await events.append(stream, message(2)), await events.append(stream, message(3))];
    assert.equal(await events.replayAfter(ids[0], sessionId), undefined, 'trimmed: the stream keeps 2');
    assert.deepEqual((await events.replayAfter(ids[1], sessionId))?.events, [{ id: ids[2], message: message(3) }]);
  });

  it('closes its connections when the application shuts down', async () => {
    const app = await startMcpTestApp(streamsApp({ url: TEST_REDIS_URL, keyPrefix }));
    const own = app.app.get(RedisConnection);
    await app.app.get<RedisMessageBus>(MCP_MESSAGE_BUS).subscribe('closing', () => undefined);
    const subscriber = await own.subscriberConnection();
    assert.equal(own.commands.isOpen && subscriber.isOpen, true);
    await app.close();
    assert.equal(own.commands.isOpen, false);
    assert.equal(subscriber.isOpen, false);
  });
});

describe('McpRedisModule.forRootAsync', () => {
  it('takes its options from a factory with injected configuration', async () => {
    const keyPrefix = runPrefix('mcp-module-async');

    @Injectable()
    class RedisSettings {
      readonly url = TEST_REDIS_URL;
      readonly prefix = keyPrefix;
    }
    @Module({ providers: [RedisSettings], exports: [RedisSettings] })
    class SettingsModule {}

    @Module({
      imports: [
        McpRedisModule.forRootAsync({
          imports: [SettingsModule],
          inject: [RedisSettings],
          useFactory: (settings: RedisSettings) => ({ url: settings.url, keyPrefix: settings.prefix }),
        }),
        McpModule.forRoot({ streams: true, ...mcpRedisStreamExtensions() }),
      ],
    })
    class AsyncApp {}

    const t = await startMcpTestApp(AsyncApp);
    try {
      assert.equal(t.app.get(RedisConnection).keyPrefix, keyPrefix);
      assert.ok(t.app.get(MCP_SESSION_STORE) instanceof RedisSessionStore);
    } finally {
      await t.close();
    }
  });
});

describe('McpRedisModule while Redis is away at boot', () => {
  it('waits bootWaitMs for it and says so; in stream mode the layer starts once Redis answers (its bus channels are subscribed at start)', async () => {
    const redis = new URL(TEST_REDIS_URL);
    const proxy = await tcpProxy(Number(redis.port || 6379), redis.hostname);
    await proxy.stop();
    const logged: string[] = [];
    const record = (message: unknown) => void logged.push(String(message));
    const logger: LoggerService = { log: record, error: record, warn: record };
    const keyPrefix = runPrefix('mcp-module-late');
    const url = new URL(TEST_REDIS_URL);
    url.host = `${proxy.host}:${proxy.port}`;
    const app = await NestFactory.create(streamsApp({ url: url.href, keyPrefix, bootWaitMs: 300 }), { logger });
    useMcpTransport(app);
    try {
      let started = false;
      const starting = app.init().then(() => (started = true));
      await sleep(600);
      assert.equal(started, false, 'the layer waits for its bus');
      const warning = logged.find((line) => line.includes('did not answer within 300 ms'));
      assert.ok(warning, logged.join('\n'));
      assert.match(warning, new RegExp(`^Redis at redis://(.*@)?127\\.0\\.0\\.1:${proxy.port} \\(keys ${keyPrefix}:\\*\\) did not answer`));
      await assert.rejects(app.get<RedisSessionStore>(MCP_SESSION_STORE).get('any'), 'its commands fail at once meanwhile');

      await proxy.start();
      await starting;
      // The command connection reconnects on its own (backing off up to 2 s between attempts).
      const commands = app.get(RedisConnection).commands;
      for (const deadline = Date.now() + 5_000; !commands.isReady && Date.now() < deadline;) await sleep(20);
      assert.equal(await app.get<RedisSessionStore>(MCP_SESSION_STORE).get('any'), undefined, 'answered by Redis');
    } finally {
      await app.close();
      await proxy.stop();
    }
  });

  it('refuses wrong options at boot, naming them', async () => {
    await assert.rejects(
      NestFactory.create(streamsApp({ url: 'localhost:6379' }), { logger: false, abortOnError: false }),
      /McpRedisModule: url must be a redis:\/\/ or rediss:\/\/ URL/,
    );
  });
});
