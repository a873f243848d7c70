/**
 * What a tool may return: a handler shared with REST returns what Prisma and the standard library
 * give it (a `BigInt` id, a `Map`, a `Set`), and both surfaces send it as JSON by the same rules.
 * A value JSON cannot carry (a circular reference) is the server's fault: the agent reads a tool
 * error saying so, REST a 500 with a JSON body, and the log names the path of the value. A result
 * over `maxResultBytes` is refused over MCP with what to do instead; REST sends it (its clients page).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ClassSerializerInterceptor, ConsoleLogger, Controller, Get, Injectable, Module, UseInterceptors } from '@nestjs/common';
import { Exclude } from 'class-transformer';
import { IsString } from 'class-validator';
import { McpModule, McpResource, McpRestModule, McpTool } from '@nest-mcp/core';
import { callHandshake, callStateless, envelopeOf, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';
import { resolveMcpOptions } from '../../src/options/mcp-options.resolver.js';

class BigIdDto {
  @IsString()
  id: string;

  @IsString()
  label: string;
}

/** A Prisma-like row: a 64-bit id, and a field the app's serializer keeps out of every answer. */
class UserRow {
  id = 42n;
  email = 'ana@example.com';
  @Exclude()
  passwordHash = 'secret-hash';
}

const READ_ONLY = { annotations: { readOnlyHint: true } };
/** Small enough for the fixture's "large" result to pass it, large enough for every other result. */
const MAX_RESULT_BYTES = 4096;

@Controller('values')
class ValuesController {
  @Get('bigint')
  @McpTool({ description: 'Returns a 64-bit id.', output: BigIdDto, ...READ_ONLY })
  bigint() {
    return { id: 9007199254740993n, label: 'beyond 2^53' };
  }

  @Get('map')
  @McpTool({ description: 'Returns totals by currency, as a Map.', ...READ_ONLY })
  map() {
    return {
      totals: new Map<string, number | bigint>([
        ['eur', 10],
        ['usd', 20n],
      ]),
    };
  }

  @Get('set')
  @McpTool({ description: 'Returns tags, as a Set.', ...READ_ONLY })
  set() {
    return { tags: new Set(['overdue', 'vip']) };
  }

  @Get('circular')
  @McpTool({ description: 'Returns a customer whose parent is itself.', ...READ_ONLY })
  circular() {
    const customer: Record<string, unknown> = { id: 1, name: 'Acme' };
    customer.parent = customer;
    return { customer };
  }

  @Get('user')
  @UseInterceptors(ClassSerializerInterceptor)
  @McpTool({ description: 'Returns a user row, through the app serializer.', ...READ_ONLY })
  user() {
    return new UserRow();
  }

  @Get('large')
  @McpTool({ description: 'Returns more rows than the result limit allows.', ...READ_ONLY })
  large() {
    return { rows: Array.from({ length: 100 }, (_, index) => ({ index, text: 'x'.repeat(60) })) };
  }
}

@Injectable()
class ValuesResources {
  @McpTool({ description: 'Builds its own content blocks, too many of them.', ...READ_ONLY })
  ownBlocks() {
    return { content: [{ type: 'text', text: 'y'.repeat(MAX_RESULT_BYTES) }] };
  }

  @McpResource({ uri: 'values://totals', mimeType: 'application/json' })
  totals() {
    return { total: 12345678901234567890n, byCurrency: new Map([['eur', 1n]]), tags: new Set(['a']) };
  }

  @McpResource({ uri: 'values://loop', mimeType: 'application/json' })
  loop() {
    const node: Record<string, unknown> = { id: 1 };
    node.next = { back: node };
    return node;
  }
}

@Module({
  imports: [McpModule.forRoot({ maxResultBytes: MAX_RESULT_BYTES }), McpRestModule],
  controllers: [ValuesController],
  providers: [ValuesResources],
})
class ValuesApp {}

/** Keeps the warnings and errors the application logs. */
class KeptLog extends ConsoleLogger {
  readonly lines: Array<{ level: 'warn' | 'error'; text: string }> = [];
  override warn(message: unknown): void {
    this.lines.push({ level: 'warn', text: String(message) });
  }
  override error(message: unknown): void {
    this.lines.push({ level: 'error', text: String(message) });
  }
}

/** A tool call in each era: 2026-07-28 (stateless) and 2025-11-25 (handshake). */
const ERAS = {
  '2026-07-28': (url: string, name: string) => callStateless(url, 'tools/call', { name, arguments: {} }),
  '2025-11-25': (url: string, name: string) => callHandshake(url, 'tools/call', { name, arguments: {} }, '2025-11-25'),
};

describe('what a tool may return', () => {
  let t: McpTestApp;
  const log = new KeptLog();
  before(async () => {
    t = await startMcpTestApp(ValuesApp);
    t.app.useLogger(log);
  });
  after(() => t.close());
  beforeEach(() => {
    log.lines.length = 0;
  });

  const rest = async (path: string) => {
    const response = await fetch(`${t.baseUrl}/values/${path}`);
    return { status: response.status, text: await response.text() };
  };

  for (const [era, call] of Object.entries(ERAS)) {
    describe(`over MCP (${era})`, () => {
      it('sends a BigInt as its decimal string, every digit kept, in the text and in structuredContent', async () => {
        const { body } = await call(t.mcpUrl, 'bigint');
        assert.equal(body.error, undefined, JSON.stringify(body.error));
        assert.equal(body.result.isError, undefined);
        assert.deepEqual(envelopeOf(body).data, { id: '9007199254740993', label: 'beyond 2^53' });
        assert.deepEqual(body.result.structuredContent.data, { id: '9007199254740993', label: 'beyond 2^53' });
      });

      it('sends a Map as an object and a Set as an array, never as {}', async () => {
        assert.deepEqual(envelopeOf((await call(t.mcpUrl, 'map')).body).data, { totals: { eur: 10, usd: '20' } });
        assert.deepEqual(envelopeOf((await call(t.mcpUrl, 'set')).body).data, { tags: ['overdue', 'vip'] });
      });

      it('answers a circular result with a tool error the agent can read, not -32603, and logs the path', async () => {
        const { status, body } = await call(t.mcpUrl, 'circular');
        assert.equal(status, 200);
        assert.equal(body.error, undefined, 'not a JSON-RPC error');
        assert.equal(body.result.isError, true);
        const envelope = envelopeOf(body);
        assert.equal(envelope.ok, false);
        assert.equal(envelope.status, 'failed');
        assert.equal(envelope.data, undefined);
        assert.equal(envelope.errors.length, 1);
        const [error] = envelope.errors;
        assert.equal(error.code, 'result_not_serializable');
        assert.equal(error.retryable, false);
        assert.match(error.message, /The result of circular could not be sent/);
        assert.match(error.message, /retrying will not help/);
        assert.doesNotMatch(error.message, /customer|parent/, 'the path is for the developer, not the agent');
        const logged = log.lines.find((line) => line.level === 'error');
        assert.ok(logged, 'an error is logged');
        assert.match(logged.text, /circular/);
        assert.match(logged.text, /a circular reference \(back to data\.customer\) at data\.customer\.parent/);
      });

      it('refuses a result over maxResultBytes with its size, the limit and what to do, and sends nothing of it', async () => {
        const { body } = await call(t.mcpUrl, 'large');
        assert.equal(body.error, undefined, 'not a JSON-RPC error');
        assert.equal(body.result.isError, true);
        assert.equal(body.result.content.length, 1);
        assert.doesNotMatch(body.result.content[0].text, /xxxxxxxxxx/, 'none of the rows is sent');
        const [error] = envelopeOf(body).errors;
        assert.equal(error.code, 'result_too_large');
        assert.match(error.message, /The result of large is \d+ bytes of JSON, more than the 4096 this server sends/);
        assert.match(error.message, /fewer rows|narrower/);
        const warning = log.lines.find((line) => line.level === 'warn');
        assert.ok(warning, 'a warning is logged');
        assert.match(warning.text, /large/);
        assert.match(warning.text, /maxResultBytes/);
      });

      it("holds a handler's own CallToolResult to the same limit", async () => {
        const { body } = await call(t.mcpUrl, 'ownBlocks');
        assert.equal(body.result.isError, true);
        assert.equal(body.result.content.length, 1);
        assert.equal(envelopeOf(body).errors[0].code, 'result_too_large');
      });
    });
  }

  it("keeps the app serializer's exclusions while writing a BigInt id", async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'user', arguments: {} });
    assert.deepEqual(envelopeOf(body).data, { id: '42', email: 'ana@example.com' });
    const { status, text } = await rest('user');
    assert.equal(status, 200);
    assert.deepEqual(JSON.parse(text), { id: '42', email: 'ana@example.com' });
  });

  it('limits results to 1 MiB unless told otherwise, and refuses a limit that is not a positive integer', () => {
    assert.equal(resolveMcpOptions().maxResultBytes, 1024 * 1024);
    assert.throws(() => resolveMcpOptions({ maxResultBytes: 0 }), /maxResultBytes must be a positive integer, got 0/);
  });

  it('serves a resource whose JSON holds a BigInt, a Map and a Set by the same rules', async () => {
    const { body } = await callStateless(t.mcpUrl, 'resources/read', { uri: 'values://totals' });
    assert.equal(body.error, undefined, JSON.stringify(body.error));
    assert.deepEqual(JSON.parse(body.result.contents[0].text), {
      total: '12345678901234567890',
      byCurrency: { eur: '1' },
      tags: ['a'],
    });
  });

  it('answers a resource JSON cannot carry with -32603 saying so, and logs the path', async () => {
    const { body } = await callStateless(t.mcpUrl, 'resources/read', { uri: 'values://loop' });
    assert.equal(body.error.code, -32603);
    assert.match(body.error.message, /The content of .*values:\/\/loop.* could not be sent/);
    assert.match(body.error.message, /retrying will not help/);
    const logged = log.lines.find((line) => line.level === 'error');
    assert.ok(logged, 'an error is logged');
    assert.match(logged.text, /values:\/\/loop/);
    assert.match(logged.text, /a circular reference \(back to the top of the value\) at next\.back/);
  });

  describe('over REST, the same routes', () => {
    it('send a BigInt as its decimal string instead of a 500', async () => {
      const { status, text } = await rest('bigint');
      assert.equal(status, 200);
      assert.deepEqual(JSON.parse(text), { id: '9007199254740993', label: 'beyond 2^53' });
    });

    it('send a Map as an object and a Set as an array', async () => {
      assert.deepEqual(JSON.parse((await rest('map')).text), { totals: { eur: 10, usd: '20' } });
      assert.deepEqual(JSON.parse((await rest('set')).text), { tags: ['overdue', 'vip'] });
    });

    it('answer a circular result with a 500 whose JSON says why, without a stack, and log the path', async () => {
      const { status, text } = await rest('circular');
      assert.equal(status, 500);
      const body = JSON.parse(text);
      assert.equal(body.statusCode, 500);
      assert.equal(body.code, 'result_not_serializable');
      assert.match(body.message, /could not be sent/);
      assert.doesNotMatch(text, /\bat .*\.(ts|js):\d+/, 'no stack trace');
      const logged = log.lines.find((line) => line.level === 'error');
      assert.ok(logged, 'an error is logged');
      assert.match(logged.text, /GET \/values\/circular/);
      assert.match(logged.text, /ValuesController\.circular/);
      assert.match(logged.text, /a circular reference \(back to customer\) at customer\.parent/);
    });

    it('send a result over maxResultBytes whole: the limit is for agents', async () => {
      const { status, text } = await rest('large');
      assert.equal(status, 200);
      assert.equal(JSON.parse(text).rows.length, 100);
    });
  });
});
