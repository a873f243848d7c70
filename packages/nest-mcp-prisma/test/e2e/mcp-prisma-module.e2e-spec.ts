import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BadRequestException, ForbiddenException, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsOptional, IsString } from 'class-validator';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { type McpInvocation, McpModule, McpTool, ToolReply } from '@nest-mcp/core';
import { MCP_CALL_HOOK, MCP_CLIENT_INFO_STORE, MCP_IDEMPOTENCY_STORE, MCP_REQUEST_STATE_STORE } from '@nest-mcp/core/extensions';
import { callTool, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';
import {
  ExpiredRowsCleanup,
  McpAuditHook,
  McpChannel,
  McpDatabase,
  McpPrismaModule,
  mcpPrismaExtensions,
  PrismaClientInfoStore,
  PrismaIdempotencyStore,
  PrismaRequestStateStore,
} from '../../src/index.js';
import { createPackageDatabase, NEEDS_DATABASE, type PackageDatabase } from '../support/package-database.js';

/**
 * `McpPrismaModule` in a Nest app with the layer, on a real PostgreSQL: the call hook commits a
 * tool's writes with its audit row or neither, stamps the channel, and the stores hold across
 * calls as they must across replicas. The tools write with `McpDatabase.sql`, as a service of
 * the application writes with its Prisma client built on the same pool.
 */

class NoteDto {
  @IsString()
  title!: string;

  @IsOptional()
  @IsString()
  idempotency_key?: string;
}

let runs = 0;

@Injectable()
class NoteTools {
  constructor(private readonly database: McpDatabase) {}

  private async write(title: string): Promise<void> {
    const via = McpChannel.current() ?? 'none';
    await this.database.sql(sql`INSERT INTO notes (title, created_via, updated_via) VALUES (${title}, ${via}, ${via})`);
  }

  @McpTool({ description: 'Adds a note.' })
  async note_add(input: NoteDto) {
    runs++;
    await this.write(input.title);
    await sleep(20);
    return { added: input.title, run: runs };
  }

  @McpTool({ description: 'Adds a note, then answers a tool error.' })
  async note_add_then_fail(input: NoteDto) {
    await this.write(input.title);
    return ToolReply.failed([{ code: 'over_quota', message: 'Too many notes', retryable: false }]);
  }

  @McpTool({ description: 'Adds a note, then throws.' })
  async note_add_then_throw(input: NoteDto) {
    await this.write(input.title);
    if (input.title.startsWith('refused')) throw new ForbiddenException('not yours');
    if (input.title.startsWith('invalid')) throw new BadRequestException('bad title');
    throw new Error('the disk went away');
  }

  @McpTool({ description: 'Counts notes.', annotations: { readOnlyHint: true } })
  async note_count(_input: NoteDto, invocation: McpInvocation) {
    const { rows } = await this.database.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM notes`);
    return { notes: rows[0].n, inTransaction: this.database.inTransaction, era: invocation.era };
  }
}

function appModule(url: string) {
  @Module({
    imports: [
      McpPrismaModule.forRoot({
        connection: { url },
        audit: { actor: (call) => ({ userId: String(call.context.httpRequest.headers['x-user'] ?? ''), workspaceId: 'w1' }) },
        cleanupIntervalMs: 0,
      }),
      McpModule.forRoot({ serverInfo: { name: 'notes', version: '1.0.0' }, ...mcpPrismaExtensions() }),
    ],
    providers: [NoteTools],
  })
  class NotesApp {}
  return NotesApp;
}

describe('McpPrismaModule with the layer (real PostgreSQL)', { skip: NEEDS_DATABASE }, () => {
  let database: PackageDatabase;
  let t: McpTestApp;
  const as = (user: string) => ({ headers: { 'x-user': user, authorization: `Bearer ${user}-token` } });
  const notes = async (title: string) => database.rows<{ created_via: string }>('SELECT created_via FROM notes WHERE title = $1', [title]);
  const audit = (target: string) =>
    database.rows<{ channel: string; outcome: string; error_code: string | null; user_id: string; workspace_id: string; method: string }>(
      'SELECT channel, outcome, error_code, user_id, workspace_id, method FROM mcp_audit_events WHERE target = $1 ORDER BY occurred_at',
      [target],
    );

  before(async () => {
    database = await createPackageDatabase();
    t = await startMcpTestApp(appModule(database.url));
  });
  after(async () => {
    await t?.close();
    await database?.close();
  });

  it('fills the call hook and the three stores of the layer', () => {
    assert.ok(t.app.get(MCP_CALL_HOOK) instanceof McpAuditHook);
    assert.ok(t.app.get(MCP_IDEMPOTENCY_STORE) instanceof PrismaIdempotencyStore);
    assert.ok(t.app.get(MCP_REQUEST_STATE_STORE) instanceof PrismaRequestStateStore);
    assert.ok(t.app.get(MCP_CLIENT_INFO_STORE) instanceof PrismaClientInfoStore);
  });

  it('commits a write with its audit row: channel mcp, the actor the application names, outcome success', async () => {
    const answer = await callTool(t.mcpUrl, 'note_add', { title: 'kept' }, as('ana'));
    assert.equal(answer.isError, false, answer.text);
    assert.deepEqual(await notes('kept'), [{ created_via: 'mcp' }]);
    assert.deepEqual(await audit('note_add'), [
      { channel: 'mcp', outcome: 'success', error_code: null, user_id: 'ana', workspace_id: 'w1', method: 'tools/call' },
    ]);
  });

  it('rolls back the writes of a call that answers a tool error, and audits it as failed with its code', async () => {
    const answer = await callTool(t.mcpUrl, 'note_add_then_fail', { title: 'failed-write' }, as('ana'));
    assert.equal(answer.isError, true);
    assert.deepEqual(await notes('failed-write'), []);
    const [row] = await audit('note_add_then_fail');
    assert.deepEqual([row.outcome, row.error_code, row.channel], ['failed', 'over_quota', 'mcp']);
  });

  it('rolls back the writes of a call that throws: audited as the tool error the client got, or as an error for a fault', async () => {
    for (const title of ['refused-1', 'invalid-1', 'fault-1']) await callTool(t.mcpUrl, 'note_add_then_throw', { title }, as('ana'));
    assert.deepEqual([...(await notes('refused-1')), ...(await notes('invalid-1')), ...(await notes('fault-1'))], []);
    assert.deepEqual(
      (await audit('note_add_then_throw')).map((row) => [row.outcome, row.error_code]),
      [
        ['failed', 'forbidden'],
        ['failed', 'invalid_argument'],
        ['error', 'internal_error'],
      ],
    );
  });

  it('audits a read without opening a transaction for it', async () => {
    const answer = await callTool(t.mcpUrl, 'note_count', { title: '-' }, as('ana'));
    assert.equal(answer.envelope.data.inTransaction, false);
    assert.equal((await audit('note_count')).length, 1);
  });

  it('runs 20 concurrent calls with one idempotency key once, and gives all 20 the same answer', async () => {
    const before = runs;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => callTool(t.mcpUrl, 'note_add', { title: 'once', idempotency_key: 'key-once-0001' }, as('ana'))),
    );
    assert.equal(runs - before, 1);
    assert.equal(new Set(answers.map((answer) => answer.text)).size, 1);
    assert.equal((await notes('once')).length, 1);
  });

  it('refuses the same key with other arguments (idempotency_key_reused) and runs nothing', async () => {
    await callTool(t.mcpUrl, 'note_add', { title: 'first-args', idempotency_key: 'key-reused-01' }, as('ana'));
    const reused = await callTool(t.mcpUrl, 'note_add', { title: 'other-args', idempotency_key: 'key-reused-01' }, as('ana'));
    assert.equal(reused.isError, true);
    assert.equal(reused.envelope.errors[0].code, 'idempotency_key_reused');
    assert.deepEqual(await notes('other-args'), []);
  });

  it("keeps two callers' keys apart by default (the layer's callerKey): the same key runs for each", async () => {
    const a = await callTool(t.mcpUrl, 'note_add', { title: 'caller-a', idempotency_key: 'key-callers-1' }, as('ana'));
    const b = await callTool(t.mcpUrl, 'note_add', { title: 'caller-b', idempotency_key: 'key-callers-1' }, as('bob'));
    assert.equal(a.isError, false);
    assert.equal(b.isError, false, b.text);
    assert.equal((await notes('caller-b')).length, 1);
  });

  it('frees the key of a call that failed: a corrected retry with the same key runs', async () => {
    await callTool(t.mcpUrl, 'note_add_then_fail', { title: 'retry-me', idempotency_key: 'key-retry-001' }, as('ana'));
    const rows = await database.rows("SELECT 1 FROM mcp_idempotency_records WHERE key = 'key-retry-001'");
    assert.deepEqual(rows, []);
  });

  describe('the stores, as the layer uses them', () => {
    it('accepts a requestState id once, also from concurrent transactions; a rolled-back use frees it, a final one stays', async () => {
      const store = t.app.get(PrismaRequestStateStore);
      const db = t.app.get(McpDatabase);
      const expires = new Date(Date.now() + 60_000);
      const fresh = await Promise.all(Array.from({ length: 5 }, () => db.transaction(() => store.consume('state-1', expires))));
      assert.deepEqual(fresh.sort(), [false, false, false, false, true]);
      await db
        .transaction(async () => {
          assert.equal(await store.consume('state-2', expires), true);
          throw new Error('the call failed');
        })
        .catch(() => undefined);
      assert.equal(await store.consume('state-2', expires), true, 'the rolled-back use left the state free');
      await db
        .transaction(async () => {
          assert.equal(await store.consume('state-3', expires, { final: true }), true);
          throw new Error('declined');
        })
        .catch(() => undefined);
      assert.equal(await store.consume('state-3', expires), false, 'a final use sticks whatever its call did');
    });

    it('remembers one client per caller, replaced by the next initialize', async () => {
      const store = t.app.get(PrismaClientInfoStore);
      await store.remember('caller-1', { name: 'claude', version: '1' });
      await store.remember('caller-1', { name: 'claude', version: '2' });
      assert.deepEqual(await store.recall('caller-1'), { name: 'claude', version: '2' });
      assert.equal(await store.recall('nobody'), undefined);
    });

    it('the cleanup deletes expired keys and request-state uses and stale client names, and nothing else', async () => {
      await database.rows(
        "INSERT INTO mcp_idempotency_records (scope, tool, key, arguments_hash, expires_at) VALUES ('s', 't', 'expired', 'h', now() - interval '1 hour'), ('s', 't', 'live', 'h', now() + interval '1 hour')",
      );
      await database.rows(
        "INSERT INTO mcp_client_infos (caller_key, name, updated_at) VALUES ('stale', 'old', now() - interval '31 days')",
      );
      assert.ok((await t.app.get(ExpiredRowsCleanup).run()) >= 2);
      assert.deepEqual(
        (await database.rows<{ key: string }>("SELECT key FROM mcp_idempotency_records WHERE scope = 's'")).map((row) => row.key),
        ['live'],
      );
      assert.deepEqual(await database.rows("SELECT 1 FROM mcp_client_infos WHERE caller_key = 'stale'"), []);
      assert.ok((await audit('note_add')).length > 0, 'audit rows are never deleted by the cleanup');
    });
  });
});

describe('McpPrismaModule options', () => {
  const boot = (options: Parameters<typeof McpPrismaModule.forRoot>[0]) => {
    @Module({ imports: [McpPrismaModule.forRoot(options), McpModule.forRoot({ ...mcpPrismaExtensions() })] })
    class App {}
    return NestFactory.createApplicationContext(App, { logger: false, abortOnError: false });
  };

  it('refuses a boot with both a connection and a database, or neither, naming the two options', async () => {
    const url = 'postgresql://postgres@127.0.0.1:1/none';
    await assert.rejects(
      boot({ connection: { url }, database: new McpDatabase({ url }) }),
      /either connection .* or database .*exactly one/,
    );
    await assert.rejects(boot({}), /either connection .* or database/);
  });

  it('refuses an idempotency TTL that is not a whole number of seconds ≥ 1', async () => {
    await assert.rejects(boot({ connection: { url: 'postgresql://x@127.0.0.1:1/none' }, idempotency: { ttlSeconds: 0.5 } }), /ttlSeconds/);
  });
});
