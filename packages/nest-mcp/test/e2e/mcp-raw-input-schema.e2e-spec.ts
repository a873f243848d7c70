/**
 * A tool's input schema given raw, in JSON Schema 2020-12 (`@McpTool({ inputSchema })`,
 * docs/tools.md "Raw JSON Schema"): published in `tools/list` byte for byte in both eras, enforced
 * on every MCP call with the layer's invalid-argument answer, enforced on the REST requests of a
 * controller route with the 400 a DTO's refusal gets; a DTO given beside it still transforms the
 * arguments; and the boot refuses a schema that cannot be enforced as given.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Body, Controller, Injectable, Module, Param, Post } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { McpModule, McpTool, type McpInputJsonSchema } from '@nest-mcp/core';
import { callHandshake, callStateless, callTool, envelopeOf, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';
import { bootErrorOf } from '../support/boot-error.js';

/** What a DTO cannot say: `$defs` with an `$anchor`, `allOf`/`anyOf`, `if`/`then`/`else`, a closed object. */
const CONTACT_SCHEMA: McpInputJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
      'x-note': 'an annotation the validator does not know',
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#addressDef' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

/** A route tool whose arguments come from the path and the body together. */
const MEMBER_SCHEMA: McpInputJsonSchema = {
  type: 'object',
  properties: {
    team_id: { type: 'string', pattern: '^t-' },
    email: { type: 'string' },
    role: { type: 'string', enum: ['owner', 'member'] },
  },
  required: ['team_id', 'email'],
  dependentRequired: { role: ['email'] },
  additionalProperties: false,
};

const NOTE_SCHEMA: McpInputJsonSchema = {
  type: 'object',
  properties: { title: { type: 'string', minLength: 3 }, body: { type: 'string' } },
  required: ['title'],
  additionalProperties: false,
};

class NoteDto {
  @IsString()
  title!: string;

  @IsOptional()
  @IsString()
  body?: string;
}

@Injectable()
class ContactTools {
  @McpTool({ name: 'save_contact', description: 'Saves a contact.', inputSchema: CONTACT_SCHEMA })
  save(args: Record<string, unknown>) {
    return { received: args };
  }

  /** The schema is published and enforced first; the DTO then transforms what the handler gets. */
  @McpTool({ name: 'add_note', description: 'Adds a note.', inputSchema: NOTE_SCHEMA, input: NoteDto })
  addNote(note: NoteDto) {
    return { title: note.title, isDto: note instanceof NoteDto };
  }
}

@Controller('teams')
class TeamsController {
  @Post(':team_id/members')
  @McpTool({ name: 'add_member', description: 'Adds a member to a team.', inputSchema: MEMBER_SCHEMA })
  add(@Param('team_id') teamId: string, @Body() body: Record<string, unknown>) {
    return { teamId, body };
  }
}

@Module({ imports: [McpModule.forRoot({})], controllers: [TeamsController], providers: [ContactTools] })
class RawSchemaApp {}

describe('@McpTool({ inputSchema }): a raw JSON Schema 2020-12, published as given and enforced', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(RawSchemaApp);
  });
  after(() => t.close());

  const listed = async (era: 'stateless' | 'handshake') => {
    const { body } =
      era === 'stateless' ? await callStateless(t.mcpUrl, 'tools/list') : await callHandshake(t.mcpUrl, 'tools/list', {}, '2025-11-25');
    return new Map<string, any>(body.result.tools.map((tool: { name: string }) => [tool.name, tool]));
  };
  const handshakeCall = async (name: string, args: unknown) => {
    const { body } = await callHandshake(t.mcpUrl, 'tools/call', { name, arguments: args }, '2025-11-25');
    return { isError: body.result?.isError === true, envelope: envelopeOf(body) };
  };
  const rest = async (path: string, body: unknown) => {
    const response = await fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  describe('tools/list', () => {
    for (const era of ['stateless', 'handshake'] as const) {
      it(`publishes each schema byte for byte (${era} era)`, async () => {
        const tools = await listed(era);
        assert.equal(JSON.stringify(tools.get('save_contact').inputSchema), JSON.stringify(CONTACT_SCHEMA));
        assert.equal(JSON.stringify(tools.get('add_member').inputSchema), JSON.stringify(MEMBER_SCHEMA));
        // With a DTO beside it, the schema is still what is published (not the DTO's).
        assert.equal(JSON.stringify(tools.get('add_note').inputSchema), JSON.stringify(NOTE_SCHEMA));
      });
    }
  });

  describe('MCP calls', () => {
    it('runs a valid call with the arguments as sent (2026-07-28)', async () => {
      const args = { contactMethod: 'phone', phone: '555-0100', address: { city: 'Lisbon' } };
      const { isError, envelope } = await callTool(t.mcpUrl, 'save_contact', args);
      assert.equal(isError, false);
      assert.deepEqual(envelope.data, { received: args });
    });

    it('runs a valid call (2025-11-25)', async () => {
      const { isError, envelope } = await handshakeCall('save_contact', { email: 'ana@example.com' });
      assert.equal(isError, false);
      assert.deepEqual(envelope.data, { received: { email: 'ana@example.com' } });
    });

    it('refuses what the schema refuses, with the invalid-argument errors a DTO refusal gets (2026-07-28)', async () => {
      const { isError, envelope } = await callTool(t.mcpUrl, 'save_contact', { contactMethod: 'phone', email: 'a@b.c', fax: '1' });
      assert.equal(isError, true);
      assert.equal(envelope.status, 'failed');
      assert.deepEqual(envelope.errors, [
        {
          code: 'invalid_argument',
          field: 'phone',
          message: '`phone` is missing. Correct this argument and call save_contact again.',
          retryable: false,
        },
        {
          code: 'invalid_argument',
          field: 'fax',
          message: '`fax` is not an accepted argument; remove it. Correct this argument and call save_contact again.',
          retryable: false,
        },
      ]);
    });

    it('refuses in the 2025-11-25 era too, naming nested fields by their path and the alternatives of an anyOf', async () => {
      const { isError, envelope } = await handshakeCall('save_contact', { address: { city: 7 } });
      assert.equal(isError, true);
      assert.deepEqual(
        envelope.errors.map(({ field, message }) => ({ field, message })),
        [
          {
            field: undefined,
            message:
              'the arguments must match at least one of the alternatives its schema offers: (`phone` is missing) or ' +
              '(`email` is missing). Correct the arguments and call save_contact again.',
          },
          { field: 'email', message: '`email` is missing. Correct this argument and call save_contact again.' },
          {
            field: 'address.city',
            message: '`address.city` must be string. Correct this argument and call save_contact again.',
          },
        ],
      );
    });

    it('refuses a call without arguments as the empty object the schema refuses, and arguments that are not an object', async () => {
      const missing = await callStateless(t.mcpUrl, 'tools/call', { name: 'add_member' });
      assert.deepEqual(
        envelopeOf(missing.body).errors.map((error) => error.field),
        ['team_id', 'email'],
      );
      const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'add_member', arguments: ['t-1'] });
      assert.equal(body.result.isError, true);
      assert.match(envelopeOf(body).errors[0].message, /^arguments must be a JSON object/);
    });

    it("hands a route tool's handler its arguments through @Param() and @Body(), as over REST", async () => {
      const { isError, envelope } = await callTool(t.mcpUrl, 'add_member', { team_id: 't-1', email: 'ana@example.com' });
      assert.equal(isError, false);
      assert.deepEqual(envelope.data, { teamId: 't-1', body: { email: 'ana@example.com' } });
    });

    it('with a DTO beside the schema: the schema refuses first, the DTO then gives the handler its instance', async () => {
      const refused = await callTool(t.mcpUrl, 'add_note', { title: 'Hi' });
      assert.deepEqual(
        refused.envelope.errors.map(({ field, message }) => ({ field, message })),
        [{ field: 'title', message: '`title` must NOT have fewer than 3 characters. Correct this argument and call add_note again.' }],
      );
      const { isError, envelope } = await callTool(t.mcpUrl, 'add_note', { title: 'Hello' });
      assert.equal(isError, false);
      assert.deepEqual(envelope.data, { title: 'Hello', isDto: true });
    });
  });

  describe('REST requests to the route of a raw-schema tool', () => {
    it('runs a valid request', async () => {
      const { status, body } = await rest('/teams/t-1/members', { email: 'ana@example.com', role: 'owner' });
      assert.equal(status, 201);
      assert.deepEqual(body, { teamId: 't-1', body: { email: 'ana@example.com', role: 'owner' } });
    });

    it('refuses the path and body the schema refuses with the 400 of a DTO refusal, before the handler runs', async () => {
      const { status, body } = await rest('/teams/x-1/members', { role: 'boss', extra: true });
      assert.equal(status, 400);
      assert.deepEqual(body, {
        statusCode: 400,
        error: 'Bad Request',
        message: [
          '`email` is missing',
          '`extra` is not an accepted argument; remove it',
          '`team_id` must match pattern "^t-"',
          '`role` must be one of "owner", "member"',
        ],
        errors: [
          { code: 'invalid_argument', field: 'email', message: '`email` is missing', retryable: false },
          { code: 'invalid_argument', field: 'extra', message: '`extra` is not an accepted argument; remove it', retryable: false },
          { code: 'invalid_argument', field: 'team_id', message: '`team_id` must match pattern "^t-"', retryable: false },
          { code: 'invalid_argument', field: 'role', message: '`role` must be one of "owner", "member"', retryable: false },
        ],
      });
    });

    it('refuses a body that is not a JSON object', async () => {
      const { status, body } = await rest('/teams/t-1/members', ['ana@example.com']);
      assert.equal(status, 400);
      assert.deepEqual(body.errors, [
        { code: 'invalid_argument', field: '', message: 'the request body must be a JSON object', retryable: false },
      ]);
    });
  });
});

describe('@McpTool({ inputSchema }): the boot refuses a schema that cannot be enforced as given', () => {
  it('a DTO beside the schema that requires other properties: both lists named', async () => {
    @Injectable()
    class Disagreeing {
      @McpTool({
        description: 'Adds a note.',
        input: NoteDto,
        inputSchema: { type: 'object', properties: { title: { type: 'string' }, body: { type: 'string' } }, required: ['title', 'body'] },
      })
      note(dto: NoteDto) {
        return dto;
      }
    }
    const message = await bootErrorOf(Disagreeing);
    assert.match(
      message,
      /^Disagreeing\.note: its inputSchema and its input NoteDto disagree on the required properties: inputSchema\.required lists `title`, `body`, NoteDto requires `title`\./,
    );
  });

  it("a schema the 2020-12 validator refuses: the method and the validator's message", async () => {
    @Injectable()
    class Invalid {
      @McpTool({ description: 'Broken.', inputSchema: { type: 'object', properties: { a: { type: 'text' } } } })
      broken() {
        return 'never';
      }
    }
    assert.match(
      await bootErrorOf(Invalid),
      /^Invalid\.broken: inputSchema is not a valid JSON Schema 2020-12: schema is invalid: data\/properties\/a\/type/,
    );
  });

  it('a $ref outside the document, and a root that is not an object schema', async () => {
    @Injectable()
    class Remote {
      @McpTool({ description: 'Remote.', inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } } })
      remote() {
        return 'never';
      }
    }
    assert.match(await bootErrorOf(Remote), /^Remote\.remote: inputSchema refers outside itself \(\$ref "https:\/\/example\.com\/a\.json"/);
    @Injectable()
    class NotObject {
      @McpTool({ description: 'List.', inputSchema: { type: 'array' } as unknown as McpInputJsonSchema })
      list() {
        return 'never';
      }
    }
    assert.match(await bootErrorOf(NotObject), /^NotObject\.list: inputSchema must describe the arguments object/);
  });
});
