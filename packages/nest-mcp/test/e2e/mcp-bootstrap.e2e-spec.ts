import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Injectable, Module, Scope } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule, McpTool } from '@nest-mcp/core';
import { callStateless, startMcpTestApp } from '@nest-mcp/core/testing';

@Injectable()
class FirstTools {
  @McpTool({ name: 'same_name', description: 'First.' })
  first() {
    return {};
  }
}

@Injectable()
class SecondTools {
  @McpTool({ name: 'same_name', description: 'Second.' })
  second() {
    return {};
  }
}

@Injectable({ scope: Scope.REQUEST })
class RequestScopedTools {
  @McpTool({ description: 'Request scoped.' })
  scoped() {
    return {};
  }
}

function appWith(...providers: Array<new () => unknown>) {
  @Module({ imports: [McpModule.forRoot({})], providers })
  class AppModule {}
  return AppModule;
}

describe('bootstrap', () => {
  it('fails loudly when two methods claim the same tool name', async () => {
    await assert.rejects(
      NestFactory.create(appWith(FirstTools, SecondTools), { logger: false, abortOnError: false }).then((app) => app.init()),
      /Duplicate MCP tool "same_name": declared by FirstTools.first and by SecondTools.second/,
    );
  });

  it('refuses MCP handlers on request-scoped providers', async () => {
    await assert.rejects(
      NestFactory.create(appWith(RequestScopedTools), { logger: false, abortOnError: false }).then((app) => app.init()),
      /must live on singleton providers/,
    );
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
    @Module({
      imports: [McpModule.forRootAsync({ useFactory: async () => ({ path: '/agents/mcp', serverInfo: { name: 'async-app' } }) })],
      providers: [FirstTools],
    })
    class AsyncAppModule {}
    const t = await startMcpTestApp(AsyncAppModule);
    try {
      const { body } = await callStateless(t.mcpUrl, 'server/discover');
      assert.equal(body.result._meta['io.modelcontextprotocol/serverInfo'].name, 'async-app');
      assert.equal((await fetch(`${t.baseUrl}/mcp`, { method: 'POST' })).status, 404);
    } finally {
      await t.close();
    }
  });
});
