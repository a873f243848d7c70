var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Injectable, Module, UnprocessableEntityException } from '@nestjs/common';
import { McpModule, McpTool, ToolReply } from '../../src/mcp/index.js';
import { callStateless } from '../support/mcp-http.js';
import { startTestApp } from '../support/test-app.js';
let destroyed = 0;
let ReplyTools = class ReplyTools {
    identify() {
        return ToolReply.needsMoreInfo('¿Me compartes tu número de cliente?', [
            { code: 'missing_customer_identity', message: 'The customer is not identified', message_es: 'Falta identificar al cliente', field: 'customer_id', retryable: true },
        ]);
    }
    identifyByException() {
        throw new UnprocessableEntityException({ code: 'ambiguous_key', message: 'Two tracking keys match', nextQuestion: 'Which key is on the receipt?' });
    }
    enqueue() {
        return ToolReply.queued({ job_id: 'job_1' });
    }
    destroy() {
        destroyed++;
        return { destroyed: true };
    }
};
__decorate([
    McpTool({ description: 'Asks for a missing fact.' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], ReplyTools.prototype, "identify", null);
__decorate([
    McpTool({ description: 'Asks through an exception, as a handler shared with REST does.' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], ReplyTools.prototype, "identifyByException", null);
__decorate([
    McpTool({ description: 'Queues work.' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], ReplyTools.prototype, "enqueue", null);
__decorate([
    McpTool({ description: 'Deletes everything.', annotations: { destructiveHint: true } }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], ReplyTools.prototype, "destroy", null);
ReplyTools = __decorate([
    Injectable()
], ReplyTools);
let RepliesApp = class RepliesApp {
};
RepliesApp = __decorate([
    Module({ imports: [McpModule.forRoot({})], providers: [ReplyTools] })
], RepliesApp);
const envelopeOf = (body) => JSON.parse(body.result.content[0].text);
describe('tool replies beyond success', () => {
    let t;
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
        assert.deepEqual({ ...envelopeOf(body), durationMs: 0 }, {
            ok: true,
            status: 'queued',
            data: { job_id: 'job_1' },
            errors: [],
            toolName: 'enqueue',
            safety: 'mutation',
            durationMs: 0,
        });
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
//# sourceMappingURL=mcp-tool-replies.e2e-spec.js.map