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
import { ForbiddenException, Global, Injectable, Module } from '@nestjs/common';
import { MCP_ACCESS_POLICY, MCP_CALL_HOOK, McpModule, McpTool, RequiredScopes, } from '../../src/mcp/index.js';
import { callStateless, post, statelessRequest } from '../support/mcp-http.js';
import { startTestApp } from '../support/test-app.js';
let NotesTools = class NotesTools {
    notes_list() {
        return { notes: [] };
    }
    notes_add() {
        return { added: true };
    }
    notes_help() {
        return { help: 'yes' };
    }
};
__decorate([
    McpTool({ description: 'Lists notes.', annotations: { readOnlyHint: true } }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], NotesTools.prototype, "notes_list", null);
__decorate([
    RequiredScopes('notes:write'),
    McpTool({ description: 'Adds a note.' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], NotesTools.prototype, "notes_add", null);
__decorate([
    McpTool({ description: 'Public tool.', scopes: [] }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], NotesTools.prototype, "notes_help", null);
NotesTools = __decorate([
    RequiredScopes('notes:read'),
    Injectable()
], NotesTools);
/** Grants the scopes listed in the X-Scopes header: a stand-in for the identity layer. */
let HeaderScopesPolicy = class HeaderScopesPolicy {
    canUse(capability, context) {
        const granted = String(context.httpRequest.headers['x-scopes'] ?? '').split(' ');
        return capability.scopes.every((scope) => granted.includes(scope));
    }
    refuse(capability) {
        return new ForbiddenException(`needs ${capability.scopes.join(' ')}`);
    }
};
HeaderScopesPolicy = __decorate([
    Injectable()
], HeaderScopesPolicy);
const calls = [];
let RecordingHook = class RecordingHook {
    async around(call, proceed) {
        try {
            const result = await proceed();
            calls.push({ method: call.method, target: call.target, args: call.arguments, readOnly: call.readOnly, outcome: 'ok' });
            return result;
        }
        catch (error) {
            calls.push({ method: call.method, target: call.target, args: call.arguments, readOnly: call.readOnly, outcome: 'threw' });
            throw error;
        }
    }
};
RecordingHook = __decorate([
    Injectable()
], RecordingHook);
let PolicyModule = class PolicyModule {
};
PolicyModule = __decorate([
    Global(),
    Module({
        providers: [
            { provide: MCP_ACCESS_POLICY, useClass: HeaderScopesPolicy },
            { provide: MCP_CALL_HOOK, useClass: RecordingHook },
        ],
        exports: [MCP_ACCESS_POLICY, MCP_CALL_HOOK],
    })
], PolicyModule);
let NotesApp = class NotesApp {
};
NotesApp = __decorate([
    Module({ imports: [McpModule.forRoot({}), PolicyModule], providers: [NotesTools] })
], NotesApp);
async function listAs(url, scopes) {
    const request = statelessRequest('tools/list');
    const { body } = await post(url, request.body, { ...request.headers, 'x-scopes': scopes });
    return body.result.tools.map((tool) => tool.name);
}
describe('access policy and call hook', () => {
    let t;
    before(async () => {
        t = await startTestApp(NotesApp);
    });
    after(() => t.close());
    it('lists only what the policy allows; @RequiredScopes on the class and the method are inherited', async () => {
        assert.deepEqual(await listAs(t.mcpUrl, ''), ['notes_help']);
        assert.deepEqual(await listAs(t.mcpUrl, 'notes:read'), ['notes_help', 'notes_list']);
        assert.deepEqual(await listAs(t.mcpUrl, 'notes:read notes:write'), ['notes_add', 'notes_help', 'notes_list']);
    });
    it('refuses a call the policy does not allow with the policy\'s error, before running it', async () => {
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
//# sourceMappingURL=mcp-policy-and-hook.e2e-spec.js.map