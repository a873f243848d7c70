import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Injectable, Module, UnprocessableEntityException } from '@nestjs/common';
import { McpModule, McpTool, ToolReply } from '../../src/mcp/index.js';
import { callStateless, envelopeOf } from '../support/mcp-http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let destroyed = 0;

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

  @McpTool({ description: 'Queues work.' })
  enqueue() {
    return ToolReply.queued({ job_id: 'job_1' });
  }

  @McpTool({ description: 'Deletes everything.', annotations: { destructiveHint: true } })
  destroy() {
    destroyed++;
    return { destroyed: true };
  }
}

@Module({ imports: [McpModule.forRoot({})], providers: [ReplyTools] })
class RepliesApp {}

describe('tool replies beyond success', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(RepliesApp);
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
