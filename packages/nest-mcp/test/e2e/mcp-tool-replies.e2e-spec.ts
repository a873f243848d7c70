import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Injectable, Module, UnprocessableEntityException } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { McpModule, McpTool, ToolReply } from '@nest-mcp/core';
import { resolveMcpOptions } from '../../src/options/mcp-options.resolver.js';
import { callHandshake, callStateless, envelopeOf, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

let destroyed = 0;

class DoneDto {
  @ApiProperty({ description: 'Whether it was done.' })
  @IsBoolean()
  done: boolean;
}

@Injectable()
class ReplyTools {
  @McpTool({ description: 'Asks for a missing fact.' })
  identify() {
    return ToolReply.needsMoreInfo('¿Me compartes tu número de cliente?', [
      {
        code: 'missing_customer_identity',
        message: 'The customer is not identified',
        message_es: 'Falta identificar al cliente',
        field: 'customer_id',
        retryable: true,
      },
    ]);
  }

  @McpTool({ description: 'Asks through an exception, as a handler shared with REST does.' })
  identifyByException(): never {
    throw new UnprocessableEntityException({
      code: 'ambiguous_key',
      message: 'Two tracking keys match',
      nextQuestion: 'Which key is on the receipt?',
    });
  }

  @McpTool({ description: 'Refuses with a field of the app contract and one nobody declared.', output: DoneDto })
  refuseInSpanish(): never {
    throw new UnprocessableEntityException({
      code: 'closed_period',
      message: 'The period is closed',
      message_es: 'El periodo está cerrado',
      internal_note: 'not for the client',
    });
  }

  @McpTool({ description: 'Queues work.' })
  enqueue() {
    return ToolReply.queued({ job_id: 'job_1' });
  }

  @McpTool({ description: 'Stores a report and links to it.', output: DoneDto })
  report() {
    return ToolReply.success(
      { done: true },
      { resourceLinks: [{ uri: 'files://reports/7', name: 'report.csv', mimeType: 'text/csv', size: 12 }] },
    );
  }

  @McpTool({ description: 'Deletes everything.', annotations: { destructiveHint: true } })
  destroy() {
    destroyed++;
    return { destroyed: true };
  }
}

/** The app's contract adds a Spanish message to every error (toolErrorFields); the layer knows nothing of it. */
const MESSAGE_ES = { type: 'string' as const, description: 'The message in Spanish.' };

@Module({ imports: [McpModule.forRoot({ toolErrorFields: { message_es: MESSAGE_ES } })], providers: [ReplyTools] })
class RepliesApp {}

describe('tool replies beyond success', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(RepliesApp);
  });
  after(() => t.close());

  it('answers needs_more_info with ok false, isError, the errors and the next question', async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'identify', arguments: {} });
    assert.equal(body.result.isError, true);
    const envelope = envelopeOf(body);
    assert.equal(envelope.ok, false);
    assert.equal(envelope.status, 'needs_more_info');
    assert.equal(envelope.nextQuestion, '¿Me compartes tu número de cliente?');
    assert.equal(envelope.errors[0].message_es, 'Falta identificar al cliente');
    assert.equal(envelope.errors[0].retryable, true);
  });

  it("copies the app's declared error fields from a 4xx exception, and no other field", async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'refuseInSpanish', arguments: {} });
    const [error] = envelopeOf(body).errors;
    assert.deepEqual(error, {
      code: 'closed_period',
      message: 'The period is closed',
      message_es: 'El periodo está cerrado',
      retryable: false,
    });
  });

  it("declares the app's error fields in the outputSchema, beside the envelope's own", async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/list');
    const tool = body.result.tools.find((entry: { name: string }) => entry.name === 'refuseInSpanish');
    const item = tool.outputSchema.properties.errors.items;
    assert.deepEqual(Object.keys(item.properties), ['code', 'message', 'field', 'retryable', 'message_es']);
    assert.deepEqual(item.properties.message_es, MESSAGE_ES);
  });

  it('refuses toolErrorFields that redeclare a field of the envelope', () => {
    assert.throws(() => resolveMcpOptions({ toolErrorFields: { code: { type: 'number' } } }), /toolErrorFields cannot redeclare code/);
  });

  it('turns a 4xx exception with nextQuestion into needs_more_info', async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'identifyByException', arguments: {} });
    const envelope = envelopeOf(body);
    assert.equal(envelope.status, 'needs_more_info');
    assert.equal(envelope.nextQuestion, 'Which key is on the receipt?');
    assert.deepEqual(envelope.errors, [{ code: 'ambiguous_key', message: 'Two tracking keys match', retryable: false }]);
  });

  it('answers queued with ok true', async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'enqueue', arguments: {} });
    assert.equal(body.result.isError, undefined);
    assert.deepEqual(
      { ...envelopeOf(body), durationMs: 0 },
      {
        ok: true,
        status: 'queued',
        data: { job_id: 'job_1' },
        errors: [],
        toolName: 'enqueue',
        safety: 'mutation',
        durationMs: 0,
      },
    );
  });

  it('answers success with resource links: resource_link blocks after the envelope, which stays content[0] and structuredContent', async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'report', arguments: {} });
    assert.equal(body.result.isError, undefined);
    const [text, link, ...rest] = body.result.content;
    assert.equal(text.type, 'text');
    assert.deepEqual(envelopeOf(body).data, { done: true });
    assert.equal(envelopeOf(body).status, 'success');
    assert.deepEqual(body.result.structuredContent.data, { done: true });
    assert.deepEqual(link, { type: 'resource_link', uri: 'files://reports/7', name: 'report.csv', mimeType: 'text/csv', size: 12 });
    assert.deepEqual(rest, []);
    // 2025-03-26 has no resource_link content: the envelope alone.
    const old = await callHandshake(t.mcpUrl, 'tools/call', { name: 'report', arguments: {} }, '2025-03-26');
    assert.deepEqual(
      old.body.result.content.map((block: { type: string }) => block.type),
      ['text'],
    );
  });

  it('never runs a destructive tool for a client that cannot confirm when no approval gateway is provided, and says so', async () => {
    const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'destroy', arguments: {} });
    assert.equal(body.result.isError, true);
    const envelope = envelopeOf(body);
    assert.equal(envelope.safety, 'destructive');
    assert.equal(envelope.errors[0].code, 'confirmation_required');
    assert.match(envelope.errors[0].message, /Nothing was done/);
    assert.equal(destroyed, 0);
  });
});
