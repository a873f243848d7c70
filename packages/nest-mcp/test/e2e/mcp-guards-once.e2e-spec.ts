import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Body, Controller, Injectable, Module, Post, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Request } from 'express';
import { IsString, MaxLength } from 'class-validator';
import { McpModule, McpPrompt, McpRequestGuard, McpResource, McpTool } from '@nest-mcp/core';
import { McpDispatcher } from '@nest-mcp/core/extensions';
import { callStateless, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';
import { bootErrorOf } from '../support/boot-error.js';

/** Every guard run: `<guard> <context type> <Class.method it guarded>`. */
const runs: string[] = [];

abstract class CountingGuard implements CanActivate {
  protected abstract readonly label: string;
  canActivate(context: ExecutionContext): boolean {
    runs.push(`${this.label} ${context.getType()} ${context.getClass().name}.${context.getHandler().name}`);
    return true;
  }
}

/** Decides on the HTTP request alone, as authentication or a rate limit does. */
@Injectable()
@McpRequestGuard()
class RequestGuard extends CountingGuard {
  protected readonly label = 'request';
}

/** Decides on the capability (its metadata, its input), as a workspace or scope check does. */
@Injectable()
class CapabilityGuard extends CountingGuard {
  protected readonly label = 'capability';
}

/** A capability guard bound to one tool with `@UseGuards()`. */
@Injectable()
class MethodGuard extends CountingGuard {
  protected readonly label = 'method';
}

class NoteDto {
  @IsString()
  @MaxLength(50)
  text: string;
}

@Controller('v1/notes')
class NotesController {
  @Post()
  @UseGuards(MethodGuard)
  @McpTool({ name: 'notes_add', description: 'Adds a note.' })
  add(@Body() body: NoteDto) {
    return { text: body.text };
  }
}

@Injectable()
class NotesCapabilities {
  @McpTool({ name: 'notes_echo', description: 'Echoes a note.' })
  echo(note: NoteDto) {
    return { text: note.text };
  }

  @McpResource({ uri: 'notes://status', name: 'status', mimeType: 'text/plain' })
  status() {
    return 'ok';
  }

  @McpPrompt({ name: 'notes_draft', description: 'Drafts a note.' })
  draft(args: NoteDto) {
    return `Write a note about ${args.text}.`;
  }
}

@Module({
  imports: [McpModule.forRoot({})],
  controllers: [NotesController],
  providers: [NotesCapabilities, { provide: APP_GUARD, useClass: RequestGuard }, { provide: APP_GUARD, useClass: CapabilityGuard }],
})
class NotesApp {}

/** The endpoint's own route, as the guards see it. */
const ENDPOINT = 'McpController.post';

describe('each guard runs once per call, where its information is', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(NotesApp);
  });
  after(() => t.close());
  beforeEach(() => {
    runs.length = 0;
  });

  const mcp = async (method: string, params: Record<string, unknown>) => {
    const { status, body } = await callStateless(t.mcpUrl, method, params);
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.result?.isError, undefined, JSON.stringify(body));
  };

  it('tools/call: the request guard once, on the endpoint; the capability guards once, on the call (the endpoint has none to decide)', async () => {
    await mcp('tools/call', { name: 'notes_add', arguments: { text: 'hello' } });
    assert.deepEqual(runs, [
      `request http ${ENDPOINT}`,
      `capability http ${ENDPOINT}`,
      'capability mcp NotesController.add',
      'method mcp NotesController.add',
    ]);
  });

  it('tools/call of a provider tool, resources/read, prompts/get: the same', async () => {
    await mcp('tools/call', { name: 'notes_echo', arguments: { text: 'hi' } });
    await mcp('resources/read', { uri: 'notes://status' });
    await mcp('prompts/get', { name: 'notes_draft', arguments: { text: 'hi' } });
    const endpoint = [`request http ${ENDPOINT}`, `capability http ${ENDPOINT}`];
    assert.deepEqual(runs, [
      ...endpoint,
      'capability mcp NotesCapabilities.echo',
      ...endpoint,
      'capability mcp NotesCapabilities.status',
      ...endpoint,
      'capability mcp NotesCapabilities.draft',
    ]);
  });

  it('tools/list: once, on the endpoint', async () => {
    await mcp('tools/list', {});
    assert.deepEqual(runs, [`request http ${ENDPOINT}`, `capability http ${ENDPOINT}`]);
  });

  it('an approved call (no agent request behind it): the capability guards only', async () => {
    const actingRequest = { method: 'POST', url: '/approvals/a-1', headers: {}, query: {}, params: {} } as unknown as Request;
    const result = await t.app
      .get(McpDispatcher)
      .runApprovedCall({ tool: 'notes_echo', arguments: { text: 'approved' }, approvalId: 'a-1', actingRequest });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.deepEqual(runs, ['capability mcp NotesCapabilities.echo']);
  });

  it('REST: every guard once, on the route', async () => {
    const response = await fetch(`${t.baseUrl}/v1/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'rest' }),
    });
    assert.equal(response.status, 201);
    assert.deepEqual(runs, ['request http NotesController.add', 'capability http NotesController.add', 'method http NotesController.add']);
  });
});

@Injectable()
@UseGuards(RequestGuard)
class RequestGuardedTools {
  @McpTool({ name: 'guarded_echo', description: 'Echoes a note.' })
  echo(note: NoteDto) {
    return { text: note.text };
  }
}

describe('a request guard bound to a capability', () => {
  it('fails the boot: over MCP only the endpoint runs request guards, and it runs only global ones', async () => {
    const message = await bootErrorOf(RequestGuardedTools, RequestGuard);
    assert.match(message, /RequestGuardedTools\.echo: @UseGuards\(RequestGuard\) binds a request guard \(@McpRequestGuard\(\)\)/);
    assert.match(message, /Register RequestGuard as a global guard \(APP_GUARD\)/);
  });
});
