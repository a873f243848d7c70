import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Body, Controller, Module, Param, Post } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import { McpModule, McpTool } from '@nest-mcp/core';
import { callStateless, envelopeOf, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

class NoteBodyDto {
  @IsString()
  @MaxLength(50)
  text: string;
}

class NoteToolDto extends NoteBodyDto {
  @IsString()
  thing_id: string;
}

@Controller('v1/things')
class ThingsController {
  @Post(':thing_id/notes')
  @McpTool({ name: 'things_note_add', description: 'Adds a note to a thing.', input: NoteToolDto })
  add(@Param('thing_id') thingId: string, @Body() body: NoteBodyDto) {
    return { thing_id: thingId, text: body.text, body_keys: Object.keys(body) };
  }
}

@Module({ imports: [McpModule.forRoot({})], controllers: [ThingsController] })
class ThingsApp {}

describe('route handlers with a path parameter and a body', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(ThingsApp);
  });
  after(() => t.close());

  it('gives the tool argument to @Param(name) and keeps it out of @Body(), so the REST body DTO validates', async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/call', {
      name: 'things_note_add',
      arguments: { thing_id: 't-1', text: 'hello' },
    });
    assert.equal(body.result.isError, undefined, body.result.content[0].text);
    assert.deepEqual(envelopeOf(body).data, { thing_id: 't-1', text: 'hello', body_keys: ['text'] });
  });

  it('serves the same handler over REST, where the path carries the id', async () => {
    const response = await fetch(`${t.baseUrl}/v1/things/t-2/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hi' }),
    });
    assert.deepEqual(await response.json(), { thing_id: 't-2', text: 'hi', body_keys: ['text'] });
  });
});
