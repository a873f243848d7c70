import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ForbiddenException, Injectable, Module, UnprocessableEntityException } from '@nestjs/common';
import { McpInsufficientScopeException, McpModule, McpResource, McpTool, RequiredScopes } from '@nest-mcp/core';
import {
  type McpAccessPolicy,
  type McpCall,
  type McpCallHook,
  type McpCallOutcome,
  type McpCapability,
  type McpRequestContext,
  TASKS_EXTENSION,
} from '@nest-mcp/core/extensions';
import { callStateless, envelopeOf, post, statelessRequest, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

/** How many times notes_add ran: a refused call must not run it. */
let added = 0;

@RequiredScopes('notes:read')
@Injectable()
class NotesTools {
  @McpTool({ description: 'Lists notes.', annotations: { readOnlyHint: true } })
  notes_list() {
    return { notes: [] };
  }

  @RequiredScopes('notes:write')
  @McpTool({ description: 'Adds a note.' })
  notes_add() {
    added += 1;
    return { added: true };
  }

  @McpTool({ description: 'Public tool.', scopes: [] })
  notes_help() {
    return { help: 'yes' };
  }
}

/** Calls that end each way a hook must tell apart. */
@RequiredScopes('outcomes')
@Injectable()
class OutcomeTools {
  @McpTool({ description: 'Answers data.' })
  outcome_success() {
    return { done: true };
  }

  @McpTool({ description: 'Refuses with a business rule.' })
  outcome_refused(): never {
    throw new UnprocessableEntityException({ code: 'closed_period', message: 'The period is closed.' });
  }

  @McpTool({ description: 'Long work, as a task for a client that follows tasks.', task: 'optional' })
  outcome_task() {
    return { built: true };
  }

  @McpResource({ uri: 'notes://status', name: 'status', mimeType: 'text/plain' })
  status() {
    return 'fine';
  }
}

/**
 * A stand-in for the identity layer: grants the scopes listed in the X-Scopes header, and
 * `X-Role: reader` stands for a role that may not write. The role is checked first: its refusal is
 * a plain permission error (a new token would not help); a scope the token lacks is the step-up
 * challenge (docs/protocol.md, "Refusals").
 */
@Injectable()
class HeaderScopesPolicy implements McpAccessPolicy {
  canUse(capability: McpCapability, context: McpRequestContext): boolean {
    return !this.deniedByRole(capability, context) && !this.missing(capability, context).length;
  }
  refuse(capability: McpCapability, context: McpRequestContext): Error {
    if (this.deniedByRole(capability, context)) {
      return new ForbiddenException({ statusCode: 403, code: 'forbidden_by_role', message: 'Your role does not allow notes:write' });
    }
    // The scopes the token has plus the missing ones, so a client that replaces its scopes keeps what it could do.
    return new McpInsufficientScopeException([...new Set([...this.granted(context), ...capability.scopes])], {
      message: `needs ${this.missing(capability, context).join(' ')}`,
    });
  }
  private deniedByRole(capability: McpCapability, context: McpRequestContext): boolean {
    return context.httpRequest.headers['x-role'] === 'reader' && capability.scopes.includes('notes:write');
  }
  private missing(capability: McpCapability, context: McpRequestContext): string[] {
    const granted = this.granted(context);
    return capability.scopes.filter((scope) => !granted.includes(scope));
  }
  private granted(context: McpRequestContext): string[] {
    return String(context.httpRequest.headers['x-scopes'] ?? '')
      .split(' ')
      .filter(Boolean);
  }
}

const calls: Array<{ method: string; target?: string; args?: unknown; readOnly: boolean; outcome: string }> = [];
/** What the hook was told of each call that answered (`call.outcome`), and whether it ran as a task's run. */
const outcomes: Array<{ target?: string; taskRun: boolean; outcome?: McpCallOutcome }> = [];

@Injectable()
class RecordingHook implements McpCallHook {
  async around<T>(call: McpCall, proceed: () => Promise<T>): Promise<T> {
    try {
      const result = await proceed();
      calls.push({ method: call.method, target: call.target, args: call.arguments, readOnly: call.readOnly, outcome: 'ok' });
      outcomes.push({ target: call.target, taskRun: !!call.context.taskRun, outcome: call.outcome });
      return result;
    } catch (error) {
      calls.push({ method: call.method, target: call.target, args: call.arguments, readOnly: call.readOnly, outcome: 'threw' });
      throw error;
    }
  }
}

@Module({
  imports: [McpModule.forRoot({ accessPolicy: { useClass: HeaderScopesPolicy }, callHook: { useClass: RecordingHook } })],
  providers: [NotesTools, OutcomeTools],
})
class NotesApp {}

async function listAs(url: string, scopes: string) {
  const request = statelessRequest('tools/list');
  const { body } = await post(url, request.body, { ...request.headers, 'x-scopes': scopes });
  return body.result.tools.map((tool: { name: string }) => tool.name);
}

describe('access policy and call hook', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(NotesApp);
  });
  after(() => t.close());

  it('lists only what the policy allows; @RequiredScopes on the class and the method are inherited', async () => {
    assert.deepEqual(await listAs(t.mcpUrl, ''), ['notes_help']);
    assert.deepEqual(await listAs(t.mcpUrl, 'notes:read'), ['notes_help', 'notes_list']);
    assert.deepEqual(await listAs(t.mcpUrl, 'notes:read notes:write'), ['notes_add', 'notes_help', 'notes_list']);
  });

  it("refuses a call beyond the token's scopes with the policy's step-up challenge (HTTP 403), before running it", async () => {
    added = 0;
    const request = statelessRequest('tools/call', { name: 'notes_add', arguments: {} });
    const { status, headers, body } = await post(t.mcpUrl, request.body, { ...request.headers, 'x-scopes': 'notes:read' });
    assert.equal(status, 403);
    assert.equal(headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="notes:read notes:write"');
    assert.equal(body.id, 1);
    assert.equal(body.error.code, -32600);
    assert.equal(body.error.message, 'needs notes:write');
    assert.equal(body.result, undefined);
    assert.equal(added, 0);
  });

  it("refuses a call the role does not allow with the policy's error as a tool result (isError, HTTP 200), before running it", async () => {
    added = 0;
    const request = statelessRequest('tools/call', { name: 'notes_add', arguments: {} });
    const { status, headers, body } = await post(t.mcpUrl, request.body, {
      ...request.headers,
      'x-scopes': 'notes:read notes:write',
      'x-role': 'reader',
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(headers.get('www-authenticate'), null, 'a plain permission error is no scope challenge');
    assert.equal(body.id, 1);
    assert.equal(body.error, undefined);
    assert.equal(body.result.isError, true);
    // The refusal's own time, measured in whole milliseconds, may tick over one: held to a count, not to 0.
    const { durationMs } = envelopeOf(body) as { durationMs?: unknown };
    assert.ok(Number.isInteger(durationMs) && (durationMs as number) >= 0, `durationMs ${String(durationMs)}`);
    assert.deepEqual(
      { ...envelopeOf(body), durationMs: 0 },
      {
        ok: false,
        status: 'failed',
        errors: [{ code: 'forbidden_by_role', message: 'Your role does not allow notes:write', retryable: false }],
        toolName: 'notes_add',
        safety: 'mutation',
        durationMs: 0,
      },
    );
    assert.equal(added, 0);
    // The same headers without the role: the policy allows it, and the tool runs.
    const allowed = await post(t.mcpUrl, request.body, { ...request.headers, 'x-scopes': 'notes:read notes:write' });
    assert.equal(allowed.status, 200);
    assert.notEqual(allowed.body.result.isError, true);
    assert.equal(added, 1);
  });

  it('runs capability calls inside the hook (refused ones too), and lists outside it', async () => {
    calls.length = 0;
    const request = statelessRequest('tools/call', { name: 'notes_list', arguments: { a: 1 } });
    await post(t.mcpUrl, request.body, { ...request.headers, 'x-scopes': 'notes:read' });
    await callStateless(t.mcpUrl, 'tools/call', { name: 'notes_add', arguments: {} });
    const byRole = statelessRequest('tools/call', { name: 'notes_add', arguments: { b: 2 } });
    await post(t.mcpUrl, byRole.body, { ...byRole.headers, 'x-scopes': 'notes:read notes:write', 'x-role': 'reader' });
    await callStateless(t.mcpUrl, 'tools/list');
    assert.deepEqual(calls, [
      { method: 'tools/call', target: 'notes_list', args: { a: 1 }, readOnly: true, outcome: 'ok' },
      { method: 'tools/call', target: 'notes_add', args: {}, readOnly: false, outcome: 'threw' },
      // A refusal answered as a tool result still reaches the hook as the refusal thrown.
      { method: 'tools/call', target: 'notes_add', args: { b: 2 }, readOnly: false, outcome: 'threw' },
    ]);
  });

  it('tells the hook how each call ended (call.outcome), typed: no hook reads the result back', async () => {
    outcomes.length = 0;
    const headers = { 'x-scopes': 'outcomes' };
    const success = await callStateless(t.mcpUrl, 'tools/call', { name: 'outcome_success', arguments: {} }, { headers });
    const refused = await callStateless(t.mcpUrl, 'tools/call', { name: 'outcome_refused', arguments: {} }, { headers });
    const read = await callStateless(t.mcpUrl, 'resources/read', { uri: 'notes://status' }, { headers });
    const queued = await callStateless(
      t.mcpUrl,
      'tools/call',
      { name: 'outcome_task', arguments: {} },
      { headers, capabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    );
    assert.equal(envelopeOf(success.body).status, 'success', success.text);
    assert.equal(envelopeOf(refused.body).errors[0].code, 'closed_period', refused.text);
    assert.equal(read.body.result.contents[0].text, 'fine', read.text);
    assert.equal(queued.body.result.resultType, 'task', queued.text);
    // The task's run on the worker passes the hook too, after the answer.
    await until(() => outcomes.some((entry) => entry.taskRun));

    assert.deepEqual(outcomes, [
      { target: 'outcome_success', taskRun: false, outcome: { status: 'success', isError: false } },
      { target: 'outcome_refused', taskRun: false, outcome: { status: 'failed', isError: true, errorCode: 'closed_period' } },
      { target: 'notes://status', taskRun: false, outcome: { status: 'success', isError: false } },
      { target: 'outcome_task', taskRun: false, outcome: { status: 'queued', isError: false, taskId: queued.body.result.taskId } },
      { target: 'outcome_task', taskRun: true, outcome: { status: 'success', isError: false } },
    ]);
  });
});

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
