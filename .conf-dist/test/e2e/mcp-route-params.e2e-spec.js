var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Body, Controller, Module, Param, Post } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import { McpModule, McpTool } from '../../src/mcp/index.js';
import { callStateless } from '../support/mcp-http.js';
import { startTestApp } from '../support/test-app.js';
class NoteBodyDto {
    text;
}
__decorate([
    IsString(),
    MaxLength(50),
    __metadata("design:type", String)
], NoteBodyDto.prototype, "text", void 0);
class NoteToolDto extends NoteBodyDto {
    thing_id;
}
__decorate([
    IsString(),
    __metadata("design:type", String)
], NoteToolDto.prototype, "thing_id", void 0);
let ThingsController = class ThingsController {
    add(thingId, body) {
        return { thing_id: thingId, text: body.text, body_keys: Object.keys(body) };
    }
};
__decorate([
    Post(':thing_id/notes'),
    McpTool({ name: 'things_note_add', description: 'Adds a note to a thing.', input: NoteToolDto }),
    __param(0, Param('thing_id')),
    __param(1, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, NoteBodyDto]),
    __metadata("design:returntype", void 0)
], ThingsController.prototype, "add", null);
ThingsController = __decorate([
    Controller('v1/things')
], ThingsController);
let ThingsApp = class ThingsApp {
};
ThingsApp = __decorate([
    Module({ imports: [McpModule.forRoot({})], controllers: [ThingsController] })
], ThingsApp);
describe('route handlers with a path parameter and a body', () => {
    let t;
    before(async () => {
        t = await startTestApp(ThingsApp);
    });
    after(() => t.close());
    it('gives the tool argument to @Param(name) and keeps it out of @Body(), so the REST body DTO validates', async () => {
        const { body } = await callStateless(t.mcpUrl, 'tools/call', { name: 'things_note_add', arguments: { thing_id: 't-1', text: 'hello' } });
        assert.equal(body.result.isError, undefined, body.result.content[0].text);
        assert.deepEqual(JSON.parse(body.result.content[0].text).data, { thing_id: 't-1', text: 'hello', body_keys: ['text'] });
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
//# sourceMappingURL=mcp-route-params.e2e-spec.js.map