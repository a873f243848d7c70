import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ForbiddenException, Injectable, Module } from '@nestjs/common';
import {
  McpModule,
  McpTool,
  RequiredScopes,
  type McpAccessPolicy,
  type McpCall,
  type McpCallHook,
  type McpCapability,
  type McpRequestContext,
} from '@nest-mcp/core';
import { callStateless, post, statelessRequest, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

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
    return { added: true };
  }

  @McpTool({ description: 'Public tool.', scopes: [] })
  notes_help() {
    return { help: 'yes' };
  }
}

/** Grants the scopes listed in the X-Scopes header: a stand-in for the identity layer. */
@Injectable()
class HeaderScopesPolicy implements McpAccessPolicy {
  canUse(capability: McpCapability, context: McpRequestContext): boolean {
    const granted = String(context.httpRequest.headers['x-scopes'] ?? '').split(' ');
    return capability.scopes.every((scope) => granted.includes(scope));
  }
  refuse(capability: McpCapability): Error {
    return new ForbiddenException(`needs ${capability.scopes.join(' ')}`);
  }
}

const calls: Array<{ method: string; target?: string; args?: unknown; readOnly: boolean; outcome: string }> = [];

@Injectable()
class RecordingHook implements McpCallHook {
  async around<T>(call: McpCall, proceed: () => Promise<T>): Promise<T> {
    try {
      const result = await proceed();
      calls.push({ method: call.method, target: call.target, args: call.arguments, readOnly: call.readOnly, outcome: 'ok' });
      return result;
    } catch (error) {
      calls.push({ method: call.method, target: call.target, args: call.arguments, readOnly: call.readOnly, outcome: 'threw' });
      throw error;
    }
  }
}

@Module({
  imports: [McpModule.forRoot({ accessPolicy: { useClass: HeaderScopesPolicy }, callHook: { useClass: RecordingHook } })],
  providers: [NotesTools],
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

  it("refuses a call the policy does not allow with the policy's error, before running it", async () => {
    const request = statelessRequest('tools/call', { name: 'notes_add', arguments: {} });
    const { status, body } = await post(t.mcpUrl, request.body, { ...request.headers, 'x-scopes': 'notes:read' });
    assert.equal(status, 403);
    assert.match(body.error.message, /needs notes:write/);
  });

  it('runs capability calls inside the hook (refused ones too), and lists outside it', async () => {
    calls.length = 0;
    const request = statelessRequest('tools/call', { name: 'notes_list', arguments: { a: 1 } });
    await post(t.mcpUrl, request.body, { ...request.headers, 'x-scopes': 'notes:read' });
    await callStateless(t.mcpUrl, 'tools/call', { name: 'notes_add', arguments: {} });
    await callStateless(t.mcpUrl, 'tools/list');
    assert.deepEqual(calls, [
      { method: 'tools/call', target: 'notes_list', args: { a: 1 }, readOnly: true, outcome: 'ok' },
      { method: 'tools/call', target: 'notes_add', args: {}, readOnly: false, outcome: 'threw' },
    ]);
  });
});
