import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Request } from 'express';
import { McpModule, type McpModuleOptions, McpTool } from '@nest-mcp/core';
import { type ApprovalOutcome, type ApprovalRequest, type McpApprovalLinks, McpDispatcher } from '@nest-mcp/core/extensions';
import { resolveMcpOptions } from '../../src/options/mcp-options.resolver.js';
import { callHandshake, callTool, envelopeOf, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

/**
 * The layer's confirmation of destructive tools (docs/contract.md §4), without a database: the decision
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

/** A money-moving tool that requires the approval page whatever the client can do. */
@Injectable()
class MoneyTools {
  @McpTool({ description: 'Sends money back.', annotations: { destructiveHint: true }, confirmation: 'link' })
  refund() {
    runs.push('refund');
    return { refunded: true };
  }
}

/** A mistake the boot must catch: confirmation on a tool that is not destructive. */
@Injectable()
class MisconfiguredTools {
  @McpTool({ description: 'Harmless.', annotations: { readOnlyHint: true }, confirmation: 'link' })
  peek() {
    return {};
  }
}

/** A gateway that records what it was asked and answers what the test sets. */
class RecordingGateway implements McpApprovalLinks {
  readonly asked: ApprovalRequest[] = [];
  next?: ApprovalOutcome;
  async request(request: ApprovalRequest): Promise<ApprovalOutcome> {
    this.asked.push(request);
    return this.next!;
  }
}
const gateway = new RecordingGateway();

function appWith(options: McpModuleOptions, withGateway: boolean, providers: Array<new () => unknown> = [DangerousTools, MoneyTools]) {
  @Module({ imports: [McpModule.forRoot({ ...options, ...(withGateway ? { approvalLinks: { useValue: gateway } } : {}) })], providers })
  class App {}
  return App;
}

async function call(url: string, capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}, name = 'wipe') {
  return (await callTool(url, name, {}, { capabilities, params: extra })).body;
}

describe('confirmation of destructive tools (MCP layer)', () => {
  let confirm: McpTestApp;
  let refuse: McpTestApp;
  let linkOnly: McpTestApp;
  before(async () => {
    confirm = await startMcpTestApp(appWith({ requestState: { secret: 'x'.repeat(32) } }, true));
    refuse = await startMcpTestApp(appWith({ destructiveTools: 'refuse' }, true));
    linkOnly = await startMcpTestApp(appWith({ destructiveConfirmation: 'link' }, true));
  });
  after(async () => {
    await confirm.close();
    await refuse.close();
    await linkOnly.close();
  });
  const pending = {
    status: 'pending',
    approvalId: 'a9',
    url: 'https://example.test/admin/approvals/a9',
    expiresAt: new Date('2030-01-01T00:00:00Z'),
  } as const;

  it('asks a 2026 client that declared elicitation in the chat, and runs on an accepted yes only', async () => {
    runs.length = 0;
    const first = await call(confirm.mcpUrl, { elicitation: {} });
    assert.equal(first.result.resultType, 'input_required');
    const question = first.result.inputRequests.confirm;
    assert.equal(question.method, 'elicitation/create');
    assert.match(question.params.message, /Wipe the cache/);
    assert.deepEqual(question.params.requestedSchema.required, ['confirm']);
    assert.deepEqual(runs, []);

    const no = await call(
      confirm.mcpUrl,
      { elicitation: {} },
      {
        requestState: first.result.requestState,
        inputResponses: { confirm: { action: 'accept', content: { confirm: false } } },
      },
    );
    assert.equal(envelopeOf(no).errors[0].code, 'confirmation_declined');
    assert.deepEqual(runs, []);

    const again = await call(confirm.mcpUrl, { elicitation: { form: {} } });
    const yes = await call(
      confirm.mcpUrl,
      { elicitation: { form: {} } },
      {
        requestState: again.result.requestState,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      },
    );
    assert.equal(yes.result.resultType, 'complete');
    assert.equal(envelopeOf(yes).status, 'success');
    assert.deepEqual(runs, ['wipe']);
  });

  it('re-asks when the retry carries the state but no answer to the question', async () => {
    const first = await call(confirm.mcpUrl, { elicitation: {} });
    const retry = await call(
      confirm.mcpUrl,
      { elicitation: {} },
      { requestState: first.result.requestState, inputResponses: { other: {} } },
    );
    assert.equal(retry.result.resultType, 'input_required');
    assert.notEqual(retry.result.requestState, first.result.requestState);
  });

  it('a client with URL-only elicitation cannot answer a form: it gets the approval link', async () => {
    gateway.next = {
      status: 'pending',
      approvalId: 'a1',
      url: 'https://example.test/admin/approvals/a1',
      expiresAt: new Date('2030-01-01T00:00:00Z'),
    };
    runs.length = 0;
    const body = await call(confirm.mcpUrl, { elicitation: { url: {} } });
    const answer = envelopeOf(body);
    assert.equal(body.result.isError, undefined);
    assert.deepEqual(
      [answer.status, answer.ok, answer.approval],
      ['pending_confirmation', false, { id: 'a1', url: 'https://example.test/admin/approvals/a1', expires_at: '2030-01-01T00:00:00.000Z' }],
    );
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

  it("a tool with confirmation: 'link' gives a 2026 client that declared elicitation an approval link, not input_required", async () => {
    gateway.next = pending;
    runs.length = 0;
    const body = await call(confirm.mcpUrl, { elicitation: { form: {} } }, {}, 'refund');
    assert.equal(body.result.resultType, 'complete');
    assert.equal(envelopeOf(body).status, 'pending_confirmation');
    assert.equal(envelopeOf(body).approval!.url, pending.url);
    assert.equal(gateway.asked.at(-1)!.tool.name, 'refund');
    assert.deepEqual(runs, []);
  });

  it("destructiveConfirmation: 'link' sends every destructive tool to the approval link, even for clients that can elicit", async () => {
    gateway.next = pending;
    runs.length = 0;
    const body = await call(linkOnly.mcpUrl, { elicitation: {} });
    assert.equal(body.result.resultType, 'complete');
    assert.equal(envelopeOf(body).status, 'pending_confirmation');
    assert.equal(gateway.asked.at(-1)!.tool.name, 'wipe');
    const stale = await call(
      linkOnly.mcpUrl,
      { elicitation: {} },
      { inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } },
    );
    assert.equal(envelopeOf(stale).status, 'pending_confirmation', 'an in-chat yes is not obeyed');
    assert.deepEqual(runs, []);
  });

  it("'refuse' with a 'link' tool: nobody can confirm it over MCP, so it is refused even for a client that can elicit", async () => {
    runs.length = 0;
    const asked = gateway.asked.length;
    const body = await call(refuse.mcpUrl, { elicitation: {} }, {}, 'refund');
    assert.equal(body.result.isError, true);
    assert.equal(envelopeOf(body).errors[0].code, 'confirmation_required');
    assert.match(envelopeOf(body).errors[0].message, /approval page/);
    assert.equal(gateway.asked.length, asked);
    assert.deepEqual(runs, []);
  });

  it('refuses to boot with confirmation on a tool that is not destructive, or an unknown destructiveConfirmation', async () => {
    await assert.rejects(
      NestFactory.create(appWith({}, true, [MisconfiguredTools]), { logger: false, abortOnError: false }).then((app) => app.init()),
      /MisconfiguredTools\.peek: confirmation applies to destructive tools only/,
    );
    assert.throws(() => resolveMcpOptions({ destructiveConfirmation: 'chat' as 'link' }), /destructiveConfirmation must be/);
  });

  it('refuses to boot when a tool can only be confirmed by link and no approval links are given', async () => {
    // MoneyTools.refund is `confirmation: 'link'`; the server-wide 'link' makes DangerousTools.wipe one too.
    await assert.rejects(
      NestFactory.create(appWith({}, false, [MoneyTools]), { logger: false, abortOnError: false }).then((app) => app.init()),
      /refund can only be confirmed on an approval page, and no approval links are configured/,
    );
    await assert.rejects(
      NestFactory.create(appWith({ destructiveConfirmation: 'link' }, false, [DangerousTools]), {
        logger: false,
        abortOnError: false,
      }).then((app) => app.init()),
      /wipe can only be confirmed on an approval page/,
    );
    // Refusing those tools over MCP is a valid choice without links.
    const app = await NestFactory.create(appWith({ destructiveTools: 'refuse' }, false, [MoneyTools]), {
      logger: false,
      abortOnError: false,
    });
    await assert.rejects(app.init(), /useMcpTransport/);
  });

  it('runs an approved call in-process through the pipeline, without asking again, and answers the bare tool result', async () => {
    runs.length = 0;
    const asked = gateway.asked.length;
    const result = await confirm.app.get(McpDispatcher).runApprovedCall({
      tool: 'refund',
      arguments: {},
      approvalId: 'a7',
      actingRequest: { headers: {} } as Request,
    });
    assert.deepEqual(runs, ['refund']);
    assert.equal(gateway.asked.length, asked, 'no approval was requested again');
    assert.equal(JSON.parse((result.content[0] as { text: string }).text).status, 'success');
    // Stored and replayed to 2025 and 2026 clients alike: no era decoration.
    assert.equal('resultType' in result, false);
    assert.equal('_meta' in result, false);
  });

  it('leaves tools without destructiveHint alone', async () => {
    const { body } = await callTool(confirm.mcpUrl, 'look');
    assert.equal(envelopeOf(body).status, 'success');
  });
});
