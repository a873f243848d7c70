import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  Injectable,
  Module,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type MiddlewareConsumer,
  type NestInterceptor,
  type NestMiddleware,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { Observable } from 'rxjs';
import { McpModule, McpRequestGuard, McpTool } from '@nest-mcp/core';
import { InMemoryIdempotencyStore, McpDispatcher, McpRegistry, type McpCall, type McpCallHook } from '@nest-mcp/core/extensions';
import { callHandshake, callStateless, envelopeOf, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';
import { McpController } from '../../src/server/mcp.controller.js';
import { StatelessClientInfo } from '../../src/handlers/stateless-client-info.js';
import { ToolsHandler } from '../../src/handlers/tools.handler.js';
import { ToolResultRenderer } from '../../src/handlers/tool-result.renderer.js';
import { McpIdempotencyInterceptor } from '../../src/idempotency/idempotency.interceptor.js';

/**
 * docs/request-flow.md describes the path of one `tools/call` station by station. This test runs
 * real calls through an app with a station of every kind (middleware, request and capability
 * guards, the layer's and the app's interceptors, a call hook), records each station as it is
 * passed, and holds the doc to it: the stations passed are the doc's rows, in the doc's order,
 * each where the doc says its code is. It also counts the registry lookups: one per call.
 */
const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../../..');
const src = resolve(here, '../../src');
const DOC = join(repo, 'docs/request-flow.md');

/** The doc's station rows: `| # | station | code | … |`. */
function docStations(): Map<number, { station: string; code: string }> {
  const rows = new Map<number, { station: string; code: string }>();
  for (const line of readFileSync(DOC, 'utf8').split('\n')) {
    const cells = /^\|\s*(\d+)\s*\|(.*)$/.exec(line);
    if (!cells) continue;
    const [station, code] = cells[2].split('|').map((cell) => cell.trim());
    rows.set(Number(cells[1]), { station, code });
  }
  return rows;
}

/** Each station this test can see, by the doc's row, with a file the doc's row must name. */
const PROBES = {
  bodyReader: { row: 1, names: 'transport/mcp-request-message.ts' },
  appMiddleware: { row: 2, names: 'app middleware' },
  requestGuard: { row: 3, names: 'request guards' },
  controller: { row: 4, names: 'server/mcp.controller.ts' },
  clientInfo: { row: 6, names: 'handlers/stateless-client-info.ts' },
  dispatcher: { row: 7, names: 'server/mcp.dispatcher.ts' },
  hookIn: { row: 8, names: 'contracts/call-hook.ts' },
  toolsHandler: { row: 9, names: 'handlers/tools.handler.ts' },
  capabilityGuard: { row: 10, names: 'capability guards' },
  layerInterceptor: { row: 11, names: 'idempotency/idempotency.interceptor.ts' },
  appInterceptor: { row: 12, names: "the app's interceptors" },
  method: { row: 13, names: 'the method' },
  renderer: { row: 14, names: 'handlers/tool-result.renderer.ts' },
  keyKept: { row: 15, names: 'idempotency/idempotency.interceptor.ts' },
  outcome: { row: 16, names: 'server/mcp.dispatcher.ts' },
  hookOut: { row: 17, names: 'mcp-audit.hook.ts' },
  eraShaping: { row: 18, names: 'server/mcp.dispatcher.ts' },
} as const;
type Probe = keyof typeof PROBES;

const trace: Probe[] = [];
const pass = (probe: Probe) => trace.push(probe);
/** Every registry lookup by name or URI, whoever makes it. */
const lookups: string[] = [];

class NoteDto {
  @IsString()
  @MaxLength(50)
  text: string;

  @IsOptional()
  @IsString()
  idempotency_key?: string;
}

@Injectable()
class TracingMiddleware implements NestMiddleware {
  use(_req: unknown, _res: unknown, next: () => void) {
    pass('appMiddleware');
    next();
  }
}

@Injectable()
@McpRequestGuard()
class RequestGuard implements CanActivate {
  canActivate(): boolean {
    pass('requestGuard');
    return true;
  }
}

@Injectable()
class CapabilityGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType<string>() === 'mcp') pass('capabilityGuard');
    return true;
  }
}

@Injectable()
class AppInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    pass('appInterceptor');
    return next.handle();
  }
}

/** A hook as an application writes one: in, the call; out, the outcome it commits on. */
@Injectable()
class TracingHook implements McpCallHook {
  async around<T>(call: McpCall, proceed: () => Promise<T>): Promise<T> {
    pass('hookIn');
    const result = await proceed();
    if (call.outcome) pass('outcome');
    pass('hookOut');
    return result;
  }
}

@Injectable()
class Notes {
  @McpTool({ name: 'notes_add', description: 'Adds a note.' })
  @UseInterceptors(AppInterceptor)
  add(note: NoteDto) {
    pass('method');
    return { text: note.text };
  }
}

@Module({
  imports: [McpModule.forRoot({ callHook: { useClass: TracingHook } })],
  providers: [Notes, AppInterceptor, { provide: APP_GUARD, useClass: RequestGuard }, { provide: APP_GUARD, useClass: CapabilityGuard }],
})
class NotesApp {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(TracingMiddleware).forRoutes('*');
  }
}

/** Wraps `Class.prototype[method]` so that each call records `probe` first; returns the undo. */
function probeOn(target: object, method: string, probe: Probe | ((...args: any[]) => void)): () => void {
  const proto = target as Record<string, (...args: unknown[]) => unknown>;
  const original = proto[method];
  proto[method] = function (this: unknown, ...args: unknown[]) {
    if (typeof probe === 'function') probe(...args);
    else pass(probe);
    return original.apply(this, args);
  };
  // A route's decorators live on its function (`@Post()`): the wrapper carries them too.
  for (const key of Reflect.getMetadataKeys(original)) Reflect.defineMetadata(key, Reflect.getMetadata(key, original), proto[method]);
  return () => {
    proto[method] = original;
  };
}

describe('docs/request-flow.md matches the path of a tools/call', () => {
  let t: McpTestApp;
  const undo: Array<() => void> = [];
  before(async () => {
    // Before the app starts: Nest keeps a reference to a route's handler (McpController.post) when it boots.
    const registry = McpRegistry.prototype;
    undo.push(
      probeOn(registry, 'tool', (name: string) => {
        lookups.push(`tool ${name}`);
        pass('bodyReader');
      }),
      ...(['prompt', 'resource', 'matchTemplate'] as const).map((method) =>
        probeOn(registry, method, (name: string) => lookups.push(`${method} ${name}`)),
      ),
      probeOn(McpController.prototype, 'post', 'controller'),
      probeOn(StatelessClientInfo.prototype, 'recall', 'clientInfo'),
      probeOn(McpDispatcher.prototype, 'dispatch', 'dispatcher'),
      probeOn(McpDispatcher.prototype, 'statelessResult', 'eraShaping'),
      probeOn(ToolsHandler.prototype, 'call', 'toolsHandler'),
      probeOn(McpIdempotencyInterceptor.prototype, 'intercept', 'layerInterceptor'),
      probeOn(ToolResultRenderer.prototype, 'answer', 'renderer'),
      probeOn(InMemoryIdempotencyStore.prototype, 'save', 'keyKept'),
    );
    t = await startMcpTestApp(NotesApp);
  });
  after(async () => {
    for (const restore of undo) restore();
    await t.close();
  });
  beforeEach(() => {
    trace.length = 0;
    lookups.length = 0;
  });
  afterEach(() => {
    trace.length = 0;
  });

  /** The doc's rows for the stations passed, in the order they were passed. */
  const rowsPassed = () => trace.map((probe) => PROBES[probe].row);

  it('every probed station is a row of the doc that names its code', () => {
    const rows = docStations();
    assert.deepEqual(
      [...rows.keys()],
      Array.from({ length: rows.size }, (_, i) => i + 1),
      'the rows are numbered 1, 2, … in order',
    );
    for (const [probe, { row, names }] of Object.entries(PROBES)) {
      const doc = rows.get(row);
      assert.ok(doc, `row ${row} (${probe}) is in the doc`);
      assert.ok(`${doc.station} ${doc.code}`.includes(names), `row ${row} names ${names}: ${doc.station} | ${doc.code}`);
    }
    // Every file a row names exists: the layer's relative to its src/, the others to the repository.
    for (const [row, { code }] of rows) {
      for (const [, file] of code.matchAll(/`([\w./-]+\.ts)`/g)) {
        const path = file.startsWith('apps/') || file.startsWith('packages/') ? join(repo, file) : join(src, file);
        assert.ok(existsSync(path), `row ${row}: ${file} exists`);
      }
    }
  });

  it('a keyed write in the 2026 era passes the stations in the doc order, and looks its tool up once', async () => {
    const { status, body } = await callStateless(t.mcpUrl, 'tools/call', {
      name: 'notes_add',
      arguments: { text: 'hello', idempotency_key: 'k-2026' },
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(envelopeOf(body).status, 'success', JSON.stringify(body));
    assert.deepEqual(lookups, ['tool notes_add'], 'one lookup, where the message was read');
    assert.deepEqual(rowsPassed(), [1, 2, 3, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
  });

  it('a handshake-era call without a session recalls the client between negotiation and the dispatcher', async () => {
    const { status, body } = await callHandshake(t.mcpUrl, 'tools/call', { name: 'notes_add', arguments: { text: 'hi' } });
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(lookups, ['tool notes_add']);
    // No key: nothing kept (15); no 2026-era decorations (18).
    assert.deepEqual(rowsPassed(), [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17]);
  });

  it('a call the layer runs itself (an approved call) looks its tool up once too, where the dispatcher builds the call', async () => {
    const actingRequest = { method: 'POST', url: '/approvals/a-1', headers: {}, query: {}, params: {} };
    const result = await t.app.get(McpDispatcher).runApprovedCall({
      tool: 'notes_add',
      arguments: { text: 'approved' },
      approvalId: 'a-1',
      actingRequest: actingRequest as never,
    });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.deepEqual(lookups, ['tool notes_add']);
  });
});
