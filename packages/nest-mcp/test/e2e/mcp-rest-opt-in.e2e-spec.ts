/**
 * The REST half of the decorators (`McpRestModule`) and the shape of each refusal over MCP:
 * - REST: a route that is a tool has its `scopes` enforced by the app's access policy (the step-up
 *   challenge or the policy's plain 403) and its DTO validated as tool arguments are (400 naming
 *   the field); the app's own authentication guard still runs first. A param pipe wrapped in
 *   `namedArgumentPipe()` names its parameter too, with the body MCP gives.
 * - MCP: missing scopes are the OAuth step-up challenge (HTTP 403 + `WWW-Authenticate`), which the
 *   official 2.x client reports as `InsufficientScopeError`; any other permission error is a tool
 *   result with `isError: true` the model can read (never HTTP 403 + `-32600`, which the 2.x client
 *   reports as CLIENT_HTTP_NOT_IMPLEMENTED).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Body,
  Controller,
  Delete,
  ForbiddenException,
  Get,
  Injectable,
  Module,
  Param,
  ParseIntPipe,
  ParseUUIDPipe,
  Post,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import type { Request } from 'express';
import { Client, InsufficientScopeError, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  isRestRequestContext,
  McpInsufficientScopeException,
  McpModule,
  McpPrompt,
  McpRestModule,
  mcpRestValidationPipe,
  McpTool,
  namedArgumentPipe,
  RequiredScopes,
} from '@nest-mcp/core';
import type { McpAccessPolicy, McpCapability, McpRequestContext } from '@nest-mcp/core/extensions';
import { post, startMcpTestApp, statelessRequest, type McpTestApp } from '@nest-mcp/core/testing';

class NoteDto {
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  title!: string;

  @IsOptional()
  @IsString()
  body?: string;
}

@Controller('notes')
class NotesController {
  @Post()
  @McpTool({ description: 'Adds a note.', scopes: ['notes:write'] })
  create(@Body() dto: NoteDto) {
    return { created: dto.title, isDto: dto instanceof NoteDto };
  }

  @Get()
  @McpTool({ description: 'Lists notes.', scopes: ['notes:read'], annotations: { readOnlyHint: true } })
  list() {
    return { notes: [] };
  }

  @Delete()
  @RequiredScopes('notes:admin')
  purge() {
    return { purged: true };
  }

  @Get('help')
  help() {
    return { help: 'public' };
  }

  @Get(':note_id')
  @McpTool({ description: 'Shows a note.', annotations: { readOnlyHint: true } })
  show(@Param('note_id', namedArgumentPipe(ParseUUIDPipe)) noteId: string) {
    return { noteId };
  }
}

@Injectable()
class NotesPrompts {
  @McpPrompt({ name: 'notes_digest', description: 'Drafts a digest of the notes.', scopes: ['notes:write'] })
  digest() {
    return 'Summarise the notes.';
  }
}

/** Who asked, and whether it was over REST (the guard) or MCP (the layer). */
const asked: Array<{ name: string; rest: boolean }> = [];

/**
 * A stand-in for an identity layer: the token's scopes in `x-scopes`, the person's role in
 * `x-role` (a viewer may not write, whatever the token says).
 */
@Injectable()
class HeaderPolicy implements McpAccessPolicy {
  canUse(capability: McpCapability, context: McpRequestContext): boolean {
    asked.push({ name: capability.name, rest: isRestRequestContext(context) });
    return !this.roleForbids(capability, context) && this.missing(capability, context).length === 0;
  }
  refuse(capability: McpCapability, context: McpRequestContext): Error {
    if (this.roleForbids(capability, context)) {
      return new ForbiddenException({ statusCode: 403, error: 'forbidden_by_role', message: 'Your role does not allow notes:write' });
    }
    return new McpInsufficientScopeException([...new Set([...this.granted(context), ...capability.scopes])], {
      message: `Insufficient scope: this needs ${this.missing(capability, context).join(' ')}`,
      resourceMetadataUrl: 'http://127.0.0.1/.well-known/oauth-protected-resource',
    });
  }
  private granted(context: McpRequestContext): string[] {
    return String(context.httpRequest.headers['x-scopes'] ?? '')
      .split(' ')
      .filter(Boolean);
  }
  private missing(capability: McpCapability, context: McpRequestContext): string[] {
    return capability.scopes.filter((scope) => !this.granted(context).includes(scope));
  }
  private roleForbids(capability: McpCapability, context: McpRequestContext): boolean {
    return context.httpRequest.headers['x-role'] === 'viewer' && capability.scopes.includes('notes:write');
  }
}

/** The app's authentication, a global guard of its own: REST needs `x-user`; a token issued for `api` may not use /mcp. */
@Injectable()
class HeaderAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (req.path.startsWith('/mcp')) {
      if (req.headers['x-token-for'] === 'api') throw new ForbiddenException('This token is issued for the REST API, not for MCP');
      return true;
    }
    if (req.path === '/notes/help') return true;
    if (!req.headers['x-user']) throw new UnauthorizedException('Sign in first');
    return true;
  }
}

@Module({
  imports: [McpModule.forRoot({ accessPolicy: { useClass: HeaderPolicy } }), McpRestModule],
  controllers: [NotesController],
  providers: [NotesPrompts, { provide: APP_GUARD, useClass: HeaderAuthGuard }],
})
class NotesApp {}

const STATELESS = '2026-07-28';
const RESOURCE_METADATA = 'http://127.0.0.1/.well-known/oauth-protected-resource';

describe('McpRestModule: the REST half of a tool, and the shape of each refusal over MCP', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(NotesApp);
  });
  after(() => t.close());

  const rest = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const response = await fetch(`${t.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  const user = (scopes: string, extra: Record<string, string> = {}) => ({ 'x-user': 'ana', 'x-scopes': scopes, ...extra });

  describe('REST', () => {
    it("refuses a tool route without the tool's scope with the policy's step-up challenge (403 + WWW-Authenticate)", async () => {
      const { status, headers, body } = await rest('POST', '/notes', user('notes:read'), { title: 'Hi' });
      assert.equal(status, 403);
      assert.equal(
        headers.get('www-authenticate'),
        `Bearer error="insufficient_scope", scope="notes:read notes:write", resource_metadata="${RESOURCE_METADATA}"`,
      );
      assert.deepEqual(body, {
        statusCode: 403,
        error: 'insufficient_scope',
        message: 'Insufficient scope: this needs notes:write',
        scope: 'notes:read notes:write',
      });
    });

    it("answers the policy's plain refusal (a role) as a 403 without a challenge", async () => {
      const { status, headers, body } = await rest('POST', '/notes', user('notes:write', { 'x-role': 'viewer' }), { title: 'Hi' });
      assert.equal(status, 403);
      assert.equal(headers.get('www-authenticate'), null);
      assert.equal(body.error, 'forbidden_by_role');
    });

    it('validates the body with the DTO: 400 naming the field, in the tool error shape too', async () => {
      const { status, body } = await rest('POST', '/notes', user('notes:write'), { body: 'no title' });
      assert.equal(status, 400);
      // A required property is held to being present first, in the words an MCP call gets.
      assert.deepEqual(body.message, ['`title` is missing']);
      assert.deepEqual(body.errors, [{ code: 'invalid_argument', field: 'title', message: '`title` is missing', retryable: false }]);
    });

    it('refuses a property the DTO does not declare (forbidUnknownArguments, on by default)', async () => {
      const { status, body } = await rest('POST', '/notes', user('notes:write'), { title: 'Hi', pinned: true });
      assert.equal(status, 400);
      assert.deepEqual(body.errors, [
        { code: 'invalid_argument', field: 'pinned', message: '`pinned` is not an accepted field; remove it', retryable: false },
      ]);
    });

    it('runs a valid call with the scope: 201, the body transformed into the DTO', async () => {
      const { status, body } = await rest('POST', '/notes', user('notes:write'), { title: 'Hi' });
      assert.equal(status, 201);
      assert.deepEqual(body, { created: 'Hi', isDto: true });
    });

    it('enforces @RequiredScopes() on a route that is no tool, and leaves routes without scopes alone', async () => {
      assert.equal((await rest('DELETE', '/notes', user('notes:write'))).status, 403);
      assert.equal((await rest('DELETE', '/notes', user('notes:admin'))).status, 200);
      assert.equal((await rest('GET', '/notes/help', {})).status, 200);
    });

    it("runs after the app's own authentication guard: no credentials is its 401, not a 403", async () => {
      const { status, body } = await rest('POST', '/notes', {}, { title: 'Hi' });
      assert.equal(status, 401);
      assert.equal(body.message, 'Sign in first');
    });

    it('asks the policy about REST requests as REST (isRestRequestContext), and never again for an MCP call', async () => {
      asked.length = 0;
      await rest('GET', '/notes', user('notes:read'));
      const request = statelessRequest('tools/call', { name: 'list', arguments: {} });
      const { status, body } = await post(t.mcpUrl, request.body, { ...request.headers, 'x-scopes': 'notes:read' });
      assert.equal(status, 200);
      assert.notEqual(body.result.isError, true);
      assert.deepEqual(asked, [
        { name: 'list', rest: true },
        { name: 'list', rest: false },
      ]);
    });

    it("namedArgumentPipe(ParseUUIDPipe): the pipe's 400 names the parameter, in the tool error shape too", async () => {
      const named = '`note_id`: Validation failed (uuid is expected)';
      const { status, body } = await rest('GET', '/notes/not-a-uuid', user(''));
      assert.equal(status, 400);
      assert.deepEqual(body, {
        statusCode: 400,
        error: 'Bad Request',
        field: 'note_id',
        message: named,
        errors: [{ code: 'invalid_argument', field: 'note_id', message: named, retryable: false }],
      });
      const request = statelessRequest('tools/call', { name: 'show', arguments: { note_id: 'not-a-uuid' } });
      const viaMcp = await post(t.mcpUrl, request.body, request.headers);
      assert.deepEqual(JSON.parse(viaMcp.body.result.content[0].text).errors, [
        { code: 'invalid_argument', field: 'note_id', message: `${named}. Correct this argument and call show again.`, retryable: false },
      ]);
      const id = '0b7f5a52-3d57-4a4b-9a43-5b1e1f0c2d11';
      assert.deepEqual((await rest('GET', `/notes/${id}`, user(''))).body, { noteId: id });
    });

    it('namedArgumentPipe() takes a pipe class or instance, passes its value through and leaves an unnamed argument alone', async () => {
      const page = namedArgumentPipe(ParseIntPipe);
      assert.equal(await page.transform('7', { type: 'query', data: 'page' }), 7);
      await assert.rejects(Promise.resolve(page.transform('seven', { type: 'query', data: 'page' })), (error: any) => {
        assert.equal(error.getResponse().field, 'page');
        assert.equal(error.getResponse().message, '`page`: Validation failed (numeric string is expected)');
        return true;
      });
      const whole = namedArgumentPipe(new ParseIntPipe());
      await assert.rejects(Promise.resolve(whole.transform('seven', { type: 'query' })), (error: any) => {
        assert.equal(error.getResponse().message, 'Validation failed (numeric string is expected)');
        assert.equal(error.getResponse().field, undefined);
        return true;
      });
    });

    it('mcpRestValidationPipe({ forbidUnknownArguments: false }) strips unknown properties instead', async () => {
      const value = await mcpRestValidationPipe({ forbidUnknownArguments: false }).transform(
        { title: 'Hi', pinned: true },
        { type: 'body', metatype: NoteDto },
      );
      assert.ok(value instanceof NoteDto);
      assert.equal(value.title, 'Hi');
      assert.equal('pinned' in value, false);
    });
  });

  describe('MCP refusals', () => {
    const connect = async (headers: Record<string, string>) => {
      const client = new Client({ name: 'refusals', version: '1.0.0' }, { versionNegotiation: { mode: { pin: STATELESS } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(t.mcpUrl), { requestInit: { headers } }));
      return client;
    };

    it('missing scopes: HTTP 403 with the step-up challenge, which the 2.x client reports as InsufficientScopeError', async () => {
      const request = statelessRequest('tools/call', { name: 'create', arguments: { title: 'Hi' } });
      const raw = await post(t.mcpUrl, request.body, { ...request.headers, 'x-scopes': 'notes:read' });
      assert.equal(raw.status, 403);
      assert.match(raw.headers.get('www-authenticate') ?? '', /^Bearer error="insufficient_scope", scope="notes:read notes:write"/);
      assert.match(raw.body.error.message, /needs notes:write/);

      const client = await connect({ 'x-scopes': 'notes:read' });
      try {
        await assert.rejects(client.callTool({ name: 'create', arguments: { title: 'Hi' } }), (error: unknown) => {
          assert.ok(error instanceof InsufficientScopeError, String(error));
          assert.equal(error.requiredScope, 'notes:read notes:write');
          return true;
        });
      } finally {
        await client.close();
      }
    });

    it('a plain permission error on tools/call: a tool result with isError the model reads (HTTP 200), over the wire and the 2.x client', async () => {
      const request = statelessRequest('tools/call', { name: 'create', arguments: { title: 'Hi' } });
      const raw = await post(t.mcpUrl, request.body, { ...request.headers, 'x-scopes': 'notes:write', 'x-role': 'viewer' });
      assert.equal(raw.status, 200);
      assert.equal(raw.headers.get('www-authenticate'), null);
      assert.equal(raw.body.result.isError, true);
      assert.equal(raw.body.result.resultType, 'complete');
      const envelope = JSON.parse(raw.body.result.content[0].text);
      assert.deepEqual(envelope, {
        ok: false,
        status: 'failed',
        errors: [{ code: 'forbidden', message: 'Your role does not allow notes:write', retryable: false }],
        toolName: 'create',
        safety: 'mutation',
        durationMs: 0,
      });

      const client = await connect({ 'x-scopes': 'notes:write', 'x-role': 'viewer' });
      try {
        const result = await client.callTool({ name: 'create', arguments: { title: 'Hi' } });
        assert.equal(result.isError, true);
        assert.match((result.content as Array<{ text: string }>)[0].text, /Your role does not allow notes:write/);
      } finally {
        await client.close();
      }
    });

    it('the same over the 2025 era (official SDK 1.x): an isError result, not an HTTP error', async () => {
      const client = new SdkClient({ name: 'refusals-v1', version: '1.0.0' });
      await client.connect(
        new SdkTransport(new URL(t.mcpUrl), { requestInit: { headers: { 'x-scopes': 'notes:write', 'x-role': 'viewer' } } }),
      );
      try {
        const result = await client.callTool({ name: 'create', arguments: { title: 'Hi' } });
        assert.equal(result.isError, true);
        assert.match((result.content as Array<{ text: string }>)[0].text, /Your role does not allow notes:write/);
      } finally {
        await client.close();
      }
    });

    it('a plain permission error on another method (prompts/get): a JSON-RPC -32602 error in an HTTP 200, a ProtocolError for the 2.x client', async () => {
      const request = statelessRequest('prompts/get', { name: 'notes_digest' });
      const raw = await post(t.mcpUrl, request.body, { ...request.headers, 'x-scopes': 'notes:write', 'x-role': 'viewer' });
      assert.equal(raw.status, 200);
      assert.deepEqual(raw.body.error, { code: -32602, message: 'notes_digest: Your role does not allow notes:write' });

      const client = await connect({ 'x-scopes': 'notes:write', 'x-role': 'viewer' });
      try {
        await assert.rejects(client.getPrompt({ name: 'notes_digest' }), (error: unknown) => {
          assert.ok(error instanceof ProtocolError, String(error));
          assert.match(error.message, /Your role does not allow notes:write/);
          return true;
        });
      } finally {
        await client.close();
      }
    });

    it("a refusal by the app's guards on the endpoint itself (the credential) keeps its HTTP 403", async () => {
      const request = statelessRequest('tools/call', { name: 'list', arguments: {} });
      const raw = await post(t.mcpUrl, request.body, { ...request.headers, 'x-scopes': 'notes:read', 'x-token-for': 'api' });
      assert.equal(raw.status, 403);
      assert.equal(raw.body.error.code, -32600);
      assert.match(raw.body.error.message, /issued for the REST API/);
    });
  });
});
