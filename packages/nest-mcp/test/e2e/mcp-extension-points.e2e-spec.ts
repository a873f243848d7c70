import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConsoleLogger, Injectable, Module } from '@nestjs/common';
import { ModuleRef, NestFactory } from '@nestjs/core';
import { IsString } from 'class-validator';
import { McpModule, McpTool } from '@nest-mcp/core';
import {
  AllowAllAccessPolicy,
  InMemoryIdempotencyStore,
  InMemoryRequestStateStore,
  MCP_ACCESS_POLICY,
  MCP_APPROVAL_LINKS,
  MCP_CALL_HOOK,
  MCP_IDEMPOTENCY_STORE,
  MCP_REQUEST_STATE_STORE,
  type McpCall,
  type McpCallHook,
  PassThroughCallHook,
} from '@nest-mcp/core/extensions';
import { callStateless, envelopeOf, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

/**
 * The layer's extension points are McpModule options: each has an in-process default, the
 * application's implementation comes from a module it lists in `imports`, the boot log names what
 * fills each, and a missing provider stops the boot instead of silently turning a feature off.
 */

let runs = 0;

class NoteDto {
  @IsString()
  text!: string;

  @IsString()
  idempotency_key!: string;
}

@Injectable()
class NoteTools {
  @McpTool({ description: 'Adds a note.' })
  notes_add(input: NoteDto) {
    runs += 1;
    return { added: input.text, run: runs };
  }
}

/** An application's hook, in an application module that exports it. */
@Injectable()
class CountingHook implements McpCallHook {
  readonly calls: string[] = [];
  around<T>(call: McpCall, proceed: () => Promise<T>): Promise<T> {
    this.calls.push(`${call.method} ${call.target}`);
    return proceed();
  }
}
@Module({ providers: [CountingHook], exports: [CountingHook] })
class AuditLikeModule {}

/** A logger that keeps what McpModule says. */
class KeptLog extends ConsoleLogger {
  readonly lines: string[] = [];
  override log(message: unknown, context?: string): void {
    if (context === 'McpModule') this.lines.push(String(message));
  }
}

function appModule(mcp: ReturnType<typeof McpModule.forRoot>) {
  @Module({ imports: [mcp], providers: [NoteTools] })
  class App {}
  return App;
}

const add = (url: string, args: Record<string, unknown>) => callStateless(url, 'tools/call', { name: 'notes_add', arguments: args });

describe('extension points as McpModule options', () => {
  describe('with no option given', () => {
    let t: McpTestApp;
    before(async () => {
      t = await startMcpTestApp(appModule(McpModule.forRoot({})));
    });
    after(() => t.close());

    it('fills each with the in-process default, and leaves approval links empty', () => {
      assert.ok(t.app.get(MCP_ACCESS_POLICY) instanceof AllowAllAccessPolicy);
      assert.ok(t.app.get(MCP_CALL_HOOK) instanceof PassThroughCallHook);
      assert.ok(t.app.get(MCP_IDEMPOTENCY_STORE) instanceof InMemoryIdempotencyStore);
      assert.ok(t.app.get(MCP_REQUEST_STATE_STORE) instanceof InMemoryRequestStateStore);
      // Through ModuleRef: app.get() of a missing provider aborts the process (abortOnError).
      assert.throws(() => t.app.get(ModuleRef).get(MCP_APPROVAL_LINKS, { strict: false }), /MCP_APPROVAL_LINKS/);
    });

    it('keeps idempotency keys in memory: a repeat replays the first answer, other arguments are refused', async () => {
      runs = 0;
      const first = envelopeOf((await add(t.mcpUrl, { text: 'a', idempotency_key: 'k-1' })).body);
      const again = envelopeOf((await add(t.mcpUrl, { text: 'a', idempotency_key: 'k-1' })).body);
      assert.deepEqual(again, first);
      assert.equal(runs, 1);
      const reused = envelopeOf((await add(t.mcpUrl, { text: 'b', idempotency_key: 'k-1' })).body);
      assert.equal(reused.errors[0].code, 'idempotency_key_reused');
      assert.equal(runs, 1);
    });
  });

  it("uses the application's provider from `imports` (useExisting), and says so at boot", async () => {
    const logger = new KeptLog();
    const app = await NestFactory.create(
      appModule(McpModule.forRoot({ imports: [AuditLikeModule], callHook: { useExisting: CountingHook } })),
      { logger },
    );
    try {
      await app.init().catch(() => undefined); // useMcpTransport is not called: the check after the report fails
      const hook = app.get(CountingHook);
      assert.equal(app.get(MCP_CALL_HOOK), hook, 'one instance, shared with the application module');
      const line = logger.lines.find((text) => text.startsWith('Extension points:'));
      assert.ok(line, 'the boot log names the extension points');
      assert.match(line, /callHook = CountingHook;/);
      assert.match(line, /accessPolicy = AllowAllAccessPolicy \(default: every caller may see and run everything\)/);
      assert.match(line, /approvalLinks = none: destructive tools are confirmed in the chat or refused/);
    } finally {
      await app.close();
    }
  });

  it('takes the extension points in forRootAsync too, next to the options factory', async () => {
    @Module({
      imports: [
        McpModule.forRootAsync({
          imports: [AuditLikeModule],
          useFactory: () => ({ serverInfo: { name: 'async' } }),
          callHook: { useExisting: CountingHook },
        }),
      ],
      providers: [NoteTools],
    })
    class AsyncApp {}
    const t = await startMcpTestApp(AsyncApp);
    try {
      const hook = t.app.get(CountingHook);
      await add(t.mcpUrl, { text: 'x', idempotency_key: 'k-async' });
      assert.deepEqual(hook.calls, ['tools/call notes_add']);
    } finally {
      await t.close();
    }
  });

  it('refuses to boot when the module that provides an extension is not imported (nothing is silently off)', async () => {
    await assert.rejects(
      NestFactory.create(appModule(McpModule.forRoot({ callHook: { useExisting: CountingHook } })), { logger: false, abortOnError: false }),
      /CountingHook/,
    );
  });
});
