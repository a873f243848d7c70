import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  Body,
  Controller,
  Injectable,
  Module,
  Param,
  Post,
  UsePipes,
  ValidationPipe,
  type ArgumentMetadata,
  type PipeTransform,
} from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { IsString, MaxLength } from 'class-validator';
import { McpModule, McpTool } from '@nest-mcp/core';
import { callStateless, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

/** What each pipe was asked to transform: `<pipe> <param type> <metatype>`. */
const seen: string[] = [];
const record = (pipe: string, metadata: ArgumentMetadata) => seen.push(`${pipe} ${metadata.type} ${metadata.metatype?.name}`);

class CountingValidationPipe extends ValidationPipe {
  constructor() {
    super({ whitelist: true, forbidNonWhitelisted: true, transform: true });
  }
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    record('validation', metadata);
    return super.transform(value, metadata);
  }
}

class TrimPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    record('other', metadata);
    return value;
  }
}

class NoteDto {
  @IsString()
  @MaxLength(50)
  text: string;
}

class NoteWithThingDto extends NoteDto {
  @IsString()
  thing_id: string;
}

@Controller('v1/notes')
class NotesController {
  @Post()
  @UsePipes(TrimPipe)
  @McpTool({ name: 'notes_add', description: 'Adds a note.' })
  add(@Body() body: NoteDto) {
    return { text: body.text };
  }

  @Post(':thing_id')
  @McpTool({ name: 'notes_add_to_thing', description: 'Adds a note to a thing.', input: NoteWithThingDto })
  addToThing(@Param('thing_id') thingId: string, @Body() body: NoteDto) {
    return { thing_id: thingId, text: body.text };
  }
}

@Injectable()
class NotesService {
  @McpTool({ name: 'notes_echo', description: 'Echoes a note.' })
  echo(note: NoteDto) {
    return { text: note.text };
  }
}

@Module({
  imports: [McpModule.forRoot({})],
  controllers: [NotesController],
  providers: [NotesService, { provide: APP_PIPE, useClass: CountingValidationPipe }],
})
class NotesApp {}

describe('a tool call is validated once', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(NotesApp);
  });
  after(() => t.close());
  beforeEach(() => {
    seen.length = 0;
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name, arguments: args });
    assert.equal(body.result.isError, undefined, body.result.content[0].text);
    return JSON.parse(body.result.content[0].text).data;
  };

  it('skips a ValidationPipe for the @Body() the layer validated, and still runs the other pipes', async () => {
    assert.deepEqual(await call('notes_add', { text: 'hello' }), { text: 'hello' });
    assert.deepEqual(seen, ['other body NoteDto']);
  });

  it('skips it for a provider tool’s input too', async () => {
    assert.deepEqual(await call('notes_echo', { text: 'hi' }), { text: 'hi' });
    // The second parameter of a provider tool (the invocation) is a custom one: no metatype, nothing to validate.
    assert.deepEqual(seen, ['validation custom undefined']);
  });

  it('still runs it when the parameter’s type is not the DTO the layer validated (an explicit input)', async () => {
    assert.deepEqual(await call('notes_add_to_thing', { thing_id: 't-1', text: 'hi' }), { thing_id: 't-1', text: 'hi' });
    assert.ok(seen.includes('validation body NoteDto'), seen.join('; '));
  });

  it('refuses invalid arguments with the layer’s message before any pipe runs', async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'notes_add', arguments: { text: 'x'.repeat(60) } });
    assert.equal(body.result.isError, true);
    assert.match(body.result.content[0].text, /`text` must be shorter than or equal to 50 characters/);
    assert.deepEqual(seen, []);
  });

  it('over REST the same route runs the ValidationPipe as before', async () => {
    const response = await fetch(`${t.baseUrl}/v1/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'rest' }),
    });
    assert.equal(response.status, 201);
    assert.ok(seen.includes('validation body NoteDto'), seen.join('; '));
    const refused = await fetch(`${t.baseUrl}/v1/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'rest', extra: 1 }),
    });
    assert.equal(refused.status, 400);
  });
});
