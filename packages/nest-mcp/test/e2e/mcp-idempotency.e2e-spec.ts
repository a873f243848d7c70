import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Module } from '@nestjs/common';
import { IsString } from 'class-validator';
import { McpModule, McpTool } from '@nest-mcp/core';
import type { McpCall, McpCallHook, McpCallOutcome } from '@nest-mcp/core/extensions';
import { callStateless, envelopeOf, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

/**
 * Idempotency keys in the layer (the default in-memory store): one interceptor claims the key,
 * runs the call, renders its answer and keeps it (a final, successful one) or frees the key
 * (anything else, a thrown error included).
 */

const runs = new Map<string, number>();
const ran = (label: string) => runs.set(label, (runs.get(label) ?? 0) + 1);

class LabelDto {
  @IsString()
  label!: string;

  @IsString()
  idempotency_key!: string;
}

@Injectable()
class KeyedTools {
  @McpTool({ description: 'Files a note, slowly.' })
  async note_file(input: LabelDto) {
    ran(input.label);
    // Long enough for `durationMs` to tell a stored answer from one rendered again.
    await sleep(25);
    return { filed: input.label, run: runs.get(input.label) };
  }

  @McpTool({ description: 'Fails unexpectedly on its first run, then works.' })
  note_flaky(input: LabelDto) {
    ran(input.label);
    if (runs.get(input.label) === 1) throw new Error('the disk went away');
    return { filed: input.label };
  }
}

const outcomes: Array<McpCallOutcome | undefined> = [];

@Injectable()
class RecordingHook implements McpCallHook {
  async around<T>(call: McpCall, proceed: () => Promise<T>): Promise<T> {
    const result = await proceed();
    outcomes.push(call.outcome);
    return result;
  }
}

@Module({ imports: [McpModule.forRoot({ callHook: { useClass: RecordingHook } })], providers: [KeyedTools] })
class KeyedApp {}

describe('idempotency keys (in memory)', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(KeyedApp);
  });
  after(() => t.close());
  beforeEach(() => {
    outcomes.length = 0;
  });

  const call = (name: string, args: Record<string, unknown>) =>
    // A call that waits on a key nobody frees must fail here, not hang the run.
    callStateless(t.mcpUrl, 'tools/call', { name, arguments: args }, { signal: AbortSignal.timeout(5_000) });

  it('replays a repeated key byte for byte, durationMs included: the tool ran once, and the hook is told it was a replay', async () => {
    const args = { label: 'replayed', idempotency_key: 'k-replayed' };
    const first = await call('note_file', args);
    const again = await call('note_file', args);
    const { durationMs } = JSON.parse(first.body.result.content[0].text) as { durationMs: number };
    assert.ok(durationMs >= 20, first.text);
    assert.equal(again.text, first.text, 'the stored answer is the one the first call got');
    assert.equal(runs.get('replayed'), 1);
    assert.deepEqual(outcomes, [
      { status: 'success', isError: false },
      { status: 'success', isError: false, replayed: true },
    ]);
  });

  it('refuses the key with other arguments (idempotency_key_reused), and the hook gets its code', async () => {
    await call('note_file', { label: 'first-use', idempotency_key: 'k-reused' });
    const reused = await call('note_file', { label: 'other-use', idempotency_key: 'k-reused' });
    assert.equal(reused.body.result.isError, true, reused.text);
    assert.equal(envelopeOf(reused.body).errors[0].code, 'idempotency_key_reused');
    assert.equal(runs.get('other-use'), undefined);
    assert.deepEqual(outcomes[1], { status: 'failed', isError: true, errorCode: 'idempotency_key_reused' });
  });

  it('frees the key of a call that threw: a retry with the same key runs, and its answer is kept', async () => {
    const args = { label: 'flaky', idempotency_key: 'k-flaky' };
    const failed = await call('note_flaky', args);
    assert.equal(failed.body.error?.code, -32603, failed.text);
    const retried = await call('note_flaky', args);
    assert.equal(envelopeOf(retried.body).ok, true, retried.text);
    assert.equal((await call('note_flaky', args)).text, retried.text);
    assert.equal(runs.get('flaky'), 2);
  });
});
