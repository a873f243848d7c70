import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Global, Injectable, Module } from '@nestjs/common';
import {
  MCP_APPROVAL_GATEWAY,
  McpModule,
  McpTool,
  type ApprovalOutcome,
  type ApprovalRequest,
  type McpApprovalGateway,
  type McpModuleOptions,
} from '../../src/mcp/index.js';
import { callHandshake, envelope, post, statelessRequest } from '../support/mcp-http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The layer's confirmation of destructive tools (SPEC §4), without a database: the decision
 * between asking in the chat, issuing an approval link and refusing, and that a tool runs only
 * after a yes.
 */

const runs: string[] = [];

@Injectable()
class DangerousTools {
  @McpTool({ title: 'Wipe the cache', description: 'Deletes every cached entry.', annotations: { destructiveHint: true } })
  wipe() {
    runs.push('wipe');
    return { wiped: true };
  }

  @McpTool({ description: 'Harmless.', annotations: { readOnlyHint: true } })
  look() {
    return { looked: true };
  }
}

/** A gateway that records what it was asked and answers what the test sets. */
class RecordingGateway implements McpApprovalGateway {
  readonly asked: ApprovalRequest[] = [];
  next?: ApprovalOutcome;
  async request(request: ApprovalRequest): Promise<ApprovalOutcome> {
    this.asked.push(request);
    return this.next!;
  }
}
const gateway = new RecordingGateway();

@Global()
@Module({ providers: [{ provide: MCP_APPROVAL_GATEWAY, useValue: gateway }], exports: [MCP_APPROVAL_GATEWAY] })
class GatewayModule {}

function appWith(options: McpModuleOptions, withGateway: boolean) {
  @Module({ imports: [McpModule.forRoot(options), ...(withGateway ? [GatewayModule] : [])], providers: [DangerousTools] })
  class App {}
  return App;
}

async function call(url: string, capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const request = statelessRequest('tools/call', { name: 'wipe', arguments: {}, ...extra });
  request.body.params._meta = envelope(capabilities);
  return (await post(url, request.body, request.headers)).body;
}
const envelopeOf = (body: any) => JSON.parse(body.result.content[0].text);

describe('confirmation of destructive tools (MCP layer)', () => {
  let confirm: TestApp;
  let refuse: TestApp;
  before(async () => {
    confirm = await startTestApp(appWith({ requestState: { secret: 'x'.repeat(32) } }, true));
    refuse = await startTestApp(appWith({ destructiveTools: 'refuse' }, true));
  });
  after(async () => {
    await confirm.close();
    await refuse.close();
  });

  it('asks a 2026 client that declared elicitation in the chat, and runs on an accepted yes only', async () => {
    runs.length = 0;
    const first = await call(confirm.mcpUrl, { elicitation: {} });
    assert.equal(first.result.resultType, 'input_required');
    const question = first.result.inputRequests.confirm;
    assert.equal(question.method, 'elicitation/create');
    assert.match(question.params.message, /Wipe the cache/);
    assert.deepEqual(question.params.requestedSchema.required, ['confirm']);
    assert.deepEqual(runs, []);

    const no = await call(confirm.mcpUrl, { elicitation: {} }, {
      requestState: first.result.requestState,
      inputResponses: { confirm: { action: 'accept', content: { confirm: false } } },
    });
    assert.equal(envelopeOf(no).errors[0].code, 'confirmation_declined');
    assert.deepEqual(runs, []);

    const again = await call(confirm.mcpUrl, { elicitation: { form: {} } });
    const yes = await call(confirm.mcpUrl, { elicitation: { form: {} } }, {
      requestState: again.result.requestState,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    assert.equal(yes.result.resultType, 'complete');
    assert.equal(envelopeOf(yes).status, 'success');
    assert.deepEqual(runs, ['wipe']);
  });

  it('re-asks when the retry carries the state but no answer to the question', async () => {
    const first = await call(confirm.mcpUrl, { elicitation: {} });
    const retry = await call(confirm.mcpUrl, { elicitation: {} }, { requestState: first.result.requestState, inputResponses: { other: {} } });
    assert.equal(retry.result.resultType, 'input_required');
    assert.notEqual(retry.result.requestState, first.result.requestState);
  });

  it('a client with URL-only elicitation cannot answer a form: it gets the approval link', async () => {
    gateway.next = { status: 'pending', approvalId: 'a1', url: 'https://example.test/admin/approvals/a1', expiresAt: new Date('2030-01-01T00:00:00Z') };
    runs.length = 0;
    const body = await call(confirm.mcpUrl, { elicitation: { url: {} } });
    const answer = envelopeOf(body);
    assert.equal(body.result.isError, undefined);
    assert.deepEqual([answer.status, answer.ok, answer.approval], [
      'pending_confirmation',
      false,
      { id: 'a1', url: 'https://example.test/admin/approvals/a1', expires_at: '2030-01-01T00:00:00.000Z' },
    ]);
    assert.equal(gateway.asked.at(-1)!.tool.title, 'Wipe the cache');
    assert.deepEqual(runs, []);
  });

  it('hands a 2025-era client the gateway outcome: a completed approval answers the stored result', async () => {
    const stored = { content: [{ type: 'text' as const, text: '{"ok":true,"status":"success"}' }] };
    gateway.next = { status: 'completed', approvalId: 'a2', result: stored };
    runs.length = 0;
    const { body } = await callHandshake(confirm.mcpUrl, 'tools/call', { name: 'wipe', arguments: {} });
    assert.deepEqual(body.result, stored);
    assert.deepEqual(runs, [], 'the stored answer, not a second run');
  });

  it("'refuse' still asks in the chat, but refuses clients that cannot confirm instead of issuing links", async () => {
    runs.length = 0;
    const asked = gateway.asked.length;
    const inChat = await call(refuse.mcpUrl, { elicitation: {} });
    assert.equal(inChat.result.resultType, 'input_required');
    const refused = await call(refuse.mcpUrl, {});
    assert.equal(refused.result.isError, true);
    assert.equal(envelopeOf(refused).errors[0].code, 'confirmation_required');
    assert.equal(gateway.asked.length, asked, 'no approval was requested');
    assert.deepEqual(runs, []);
  });

  it('leaves tools without destructiveHint alone', async () => {
    const request = statelessRequest('tools/call', { name: 'look', arguments: {} });
    const { body } = await post(confirm.mcpUrl, request.body, request.headers);
    assert.equal(envelopeOf(body).status, 'success');
  });
});
