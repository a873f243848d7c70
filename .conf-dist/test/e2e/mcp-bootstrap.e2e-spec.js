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
import { describe, it } from 'node:test';
import { Injectable, Module, Scope } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule, McpTool } from '../../src/mcp/index.js';
import { callStateless } from '../support/mcp-http.js';
import { startTestApp } from '../support/test-app.js';
let FirstTools = class FirstTools {
    first() {
        return {};
    }
};
__decorate([
    McpTool({ name: 'same_name', description: 'First.' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], FirstTools.prototype, "first", null);
FirstTools = __decorate([
    Injectable()
], FirstTools);
let SecondTools = class SecondTools {
    second() {
        return {};
    }
};
__decorate([
    McpTool({ name: 'same_name', description: 'Second.' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], SecondTools.prototype, "second", null);
SecondTools = __decorate([
    Injectable()
], SecondTools);
let RequestScopedTools = class RequestScopedTools {
    scoped() {
        return {};
    }
};
__decorate([
    McpTool({ description: 'Request scoped.' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], RequestScopedTools.prototype, "scoped", null);
RequestScopedTools = __decorate([
    Injectable({ scope: Scope.REQUEST })
], RequestScopedTools);
function appWith(...providers) {
    let AppModule = class AppModule {
    };
    AppModule = __decorate([
        Module({ imports: [McpModule.forRoot({})], providers })
    ], AppModule);
    return AppModule;
}
describe('bootstrap', () => {
    it('fails loudly when two methods claim the same tool name', async () => {
        await assert.rejects(NestFactory.create(appWith(FirstTools, SecondTools), { logger: false, abortOnError: false }).then((app) => app.init()), /Duplicate MCP tool "same_name": declared by FirstTools.first and by SecondTools.second/);
    });
    it('refuses MCP handlers on request-scoped providers', async () => {
        await assert.rejects(NestFactory.create(appWith(RequestScopedTools), { logger: false, abortOnError: false }).then((app) => app.init()), /must live on singleton providers/);
    });
    it('refuses to start when useMcpTransport(app) was not called', async () => {
        const app = await NestFactory.create(appWith(FirstTools), { logger: false, abortOnError: false });
        await assert.rejects(app.init(), /call useMcpTransport\(app\)/);
        await app.close();
    });
    it('refuses a decorator without a description or with an invalid name at import time', () => {
        assert.throws(() => McpTool({ description: '' }), /description is required/);
        assert.throws(() => McpTool({ name: 'has space', description: 'x' })({}, 'm', { value: () => 0 }), /not a valid name/);
    });
    it('supports forRootAsync and a custom endpoint path', async () => {
        let AsyncAppModule = class AsyncAppModule {
        };
        AsyncAppModule = __decorate([
            Module({
                imports: [McpModule.forRootAsync({ useFactory: async () => ({ path: '/agents/mcp', serverInfo: { name: 'async-app' } }) })],
                providers: [FirstTools],
            })
        ], AsyncAppModule);
        const t = await startTestApp(AsyncAppModule, '/agents/mcp');
        try {
            const { body } = await callStateless(t.mcpUrl, 'server/discover');
            assert.equal(body.result._meta['io.modelcontextprotocol/serverInfo'].name, 'async-app');
            assert.equal((await fetch(`${t.baseUrl}/mcp`, { method: 'POST' })).status, 404);
        }
        finally {
            await t.close();
        }
    });
});
//# sourceMappingURL=mcp-bootstrap.e2e-spec.js.map