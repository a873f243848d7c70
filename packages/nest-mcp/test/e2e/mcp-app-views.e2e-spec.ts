import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Injectable, Module } from '@nestjs/common';
import { McpModule, McpTool, type McpViewOptions } from '@nest-mcp/core';
import { clientSupportsApps, MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION, type McpRequestContext } from '@nest-mcp/core/extensions';
import { callHandshake, callStateless, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';
import { appViewsApp, TOTALS_VIEW_HTML } from '../fixtures/app-views.fixture.js';
import { bootError, bootErrorOf } from '../support/boot-error.js';

const CSP_NONE =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; media-src data:; " +
  "connect-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'";

describe('app views (docs/app-views.md)', () => {
  let t: McpTestApp;
  before(async () => {
    t = await startMcpTestApp(appViewsApp());
  });
  after(() => t.close());

  const scoped = (scopes: string) => ({ headers: { 'x-scopes': scopes } });

  it('links the view from the tool in tools/list (_meta.ui.resourceUri, visibility), in both eras', async () => {
    const asHost = { ...scoped('totals:read'), capabilities: { extensions: { [MCP_APPS_EXTENSION]: {} } } };
    const stateless = (await callStateless(t.mcpUrl, 'tools/list', {}, asHost)).body.result.tools;
    const byName = new Map(stateless.map((tool: { name: string }) => [tool.name, tool]));
    assert.deepEqual((byName.get('totals_show') as any)._meta, {
      ui: { resourceUri: 'ui://fixture/totals' },
      'ui/resourceUri': 'ui://fixture/totals',
    });
    assert.deepEqual((byName.get('totals_refresh') as any)._meta, {
      ui: { resourceUri: 'ui://fixture/totals', visibility: ['app'] },
      'ui/resourceUri': 'ui://fixture/totals',
    });
    // A client that renders no views is not shown the tool only views call.
    const plain = (await callStateless(t.mcpUrl, 'tools/list', {}, scoped('totals:read'))).body.result.tools;
    assert.deepEqual(
      plain.map((tool: { name: string }) => tool.name),
      stateless.map((tool: { name: string }) => tool.name).filter((name: string) => name !== 'totals_refresh'),
    );
    assert.ok(byName.has('totals_refresh'));
    const handshake = await callHandshake(t.mcpUrl, 'tools/list', {}, '2025-11-25');
    // Without scopes the handshake caller sees status_show only, with its link.
    assert.deepEqual(
      handshake.body.result.tools.map((tool: { name: string; _meta: unknown }) => [tool.name, tool._meta]),
      [['status_show', { ui: { resourceUri: 'ui://fixture/status' }, 'ui/resourceUri': 'ui://fixture/status' }]],
    );
  });

  it('lists the views a caller can see as resources: linked by a tool it sees, or by none', async () => {
    const all = (await callStateless(t.mcpUrl, 'resources/list', {}, scoped('totals:read'))).body.result.resources;
    assert.deepEqual(all, [
      {
        uri: 'ui://fixture/about',
        name: 'fixture/about',
        mimeType: MCP_APP_MIME_TYPE,
        _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } },
      },
      {
        uri: 'ui://fixture/status',
        name: 'fixture/status',
        mimeType: MCP_APP_MIME_TYPE,
        _meta: { ui: { csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] } } },
      },
      {
        uri: 'ui://fixture/totals',
        name: 'fixture/totals',
        title: 'Totals',
        description: 'The totals at a glance.',
        mimeType: MCP_APP_MIME_TYPE,
        _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
      },
    ]);
    const unscoped = (await callStateless(t.mcpUrl, 'resources/list')).body.result.resources;
    assert.deepEqual(
      unscoped.map((resource: { uri: string }) => resource.uri),
      ['ui://fixture/about', 'ui://fixture/status'],
    );
  });

  it('reads a view: the HTML with its CSP written first in <head>, the MIME type and _meta.ui', async () => {
    const { body } = await callStateless(t.mcpUrl, 'resources/read', { uri: 'ui://fixture/totals' }, scoped('totals:read'));
    assert.deepEqual(body.result.contents, [
      {
        uri: 'ui://fixture/totals',
        mimeType: 'text/html;profile=mcp-app',
        text: TOTALS_VIEW_HTML.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${CSP_NONE}">`),
        _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
      },
    ]);
  });

  it('writes the declared origins into the CSP of a view that declares them (html given as a function)', async () => {
    const { body } = await callHandshake(t.mcpUrl, 'resources/read', { uri: 'ui://fixture/status' }, '2025-11-25');
    const [content] = body.result.contents;
    assert.match(content.text, /^<html><head><meta http-equiv="Content-Security-Policy" content="[^"]+"><\/head>/);
    const csp = /content="([^"]+)"/.exec(content.text)![1];
    assert.match(csp, /img-src data: https:\/\/cdn\.example\.com;/);
    assert.match(csp, /script-src 'unsafe-inline' https:\/\/cdn\.example\.com;/);
    assert.match(csp, /connect-src https:\/\/api\.example\.com;/);
  });

  it("refuses to read a view to a caller who sees none of its tools, with the tools' refusal", async () => {
    const { status, headers, body } = await callStateless(t.mcpUrl, 'resources/read', { uri: 'ui://fixture/totals' });
    assert.equal(status, 403);
    assert.equal(headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="totals:read"');
    assert.equal(body.error.code, -32600);
    assert.equal(body.result, undefined);
  });

  it('declares the extension in server/discover and in initialize', async () => {
    const discover = await callStateless(t.mcpUrl, 'server/discover');
    assert.deepEqual(discover.body.result.capabilities.extensions, { [MCP_APPS_EXTENSION]: {} });
    const init = await callHandshake(t.mcpUrl, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'host', version: '1' },
    });
    assert.deepEqual(init.body.result.capabilities.extensions, { [MCP_APPS_EXTENSION]: {} });
  });
});

describe('a server without views', () => {
  it('declares no extension and lists no view', async () => {
    @Injectable()
    class Plain {
      @McpTool({ description: 'Plain.' })
      plain() {
        return {};
      }
    }
    @Module({ imports: [McpModule.forRoot({})], providers: [Plain] })
    class PlainApp {}
    const t = await startMcpTestApp(PlainApp);
    try {
      const discover = await callStateless(t.mcpUrl, 'server/discover');
      assert.equal(discover.body.result.capabilities.extensions, undefined);
      const tools = (await callStateless(t.mcpUrl, 'tools/list')).body.result.tools;
      assert.equal(tools[0]._meta, undefined);
    } finally {
      await t.close();
    }
  });
});

describe('clientSupportsApps', () => {
  const withCapabilities = (clientCapabilities: Record<string, unknown>) => ({ clientCapabilities }) as McpRequestContext;
  it('is true when the client declared the extension, with the MIME type when it lists MIME types', () => {
    assert.equal(clientSupportsApps(withCapabilities({ extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } })), true);
    assert.equal(clientSupportsApps(withCapabilities({ extensions: { [MCP_APPS_EXTENSION]: {} } })), true);
  });
  it('is false without the extension, or when its MIME types leave views out', () => {
    assert.equal(clientSupportsApps(withCapabilities({})), false);
    assert.equal(clientSupportsApps(withCapabilities({ extensions: { 'io.modelcontextprotocol/tasks': {} } })), false);
    assert.equal(clientSupportsApps(withCapabilities({ extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: ['text/html'] } } })), false);
  });
});

describe('app view boot checks', () => {
  function toolWithView(view: McpViewOptions | string, visibility?: unknown) {
    @Injectable()
    class ViewTool {
      @McpTool({ description: 'Has a view.', view, ...(visibility !== undefined ? { visibility: visibility as never } : {}) })
      viewed() {
        return {};
      }
    }
    return ViewTool;
  }
  const withModuleViews = (views: McpViewOptions[], ...providers: (new () => unknown)[]) => {
    @Module({ imports: [McpModule.forRoot({ views })], providers })
    class ViewsApp {}
    return ViewsApp;
  };

  it('refuses a URI outside the ui:// scheme', async () => {
    const message = await bootErrorOf(toolWithView({ uri: 'https://x/view' as never, html: '<p>x</p>' }));
    assert.match(message, /ViewTool\.viewed: a view's URI must use the ui:\/\/ scheme/);
  });
  it('refuses the same URI declared twice', async () => {
    const message = await bootError(
      withModuleViews([{ uri: 'ui://a/b', html: '<p>1</p>' }], toolWithView({ uri: 'ui://a/b', html: '<p>2</p>' })),
    );
    assert.match(message, /Duplicate MCP view "ui:\/\/a\/b": declared by McpModule option views and by ViewTool\.viewed/);
  });
  it('refuses an empty document, also from a function', async () => {
    assert.match(
      await bootErrorOf(toolWithView({ uri: 'ui://a/b', html: '  ' })),
      /the view ui:\/\/a\/b has no HTML: its html gave an empty string/,
    );
    assert.match(await bootErrorOf(toolWithView({ uri: 'ui://a/b', html: async () => '' })), /the view ui:\/\/a\/b has no HTML/);
  });
  it('refuses an external origin the CSP does not declare, and accepts a declared one (wildcards too)', async () => {
    const html = '<script src="https://cdn.example.com/app.js"></script>';
    assert.match(
      await bootErrorOf(toolWithView({ uri: 'ui://a/b', html })),
      /the view ui:\/\/a\/b names https:\/\/cdn\.example\.com \(https:\/\/cdn\.example\.com\/app\.js\), which its csp does not declare/,
    );
    const declared = await startMcpTestApp(
      withModuleViews([], toolWithView({ uri: 'ui://a/b', html, csp: { resourceDomains: ['https://*.example.com'] } })),
    );
    await declared.close();
  });
  it('refuses a CSP entry that is not an origin', async () => {
    const message = await bootErrorOf(
      toolWithView({ uri: 'ui://a/b', html: '<p>x</p>', csp: { connectDomains: ['https://api.example.com/v1'] } }),
    );
    assert.match(message, /csp\.connectDomains of the view ui:\/\/a\/b lists "https:\/\/api\.example\.com\/v1": list origins only/);
  });
  it('refuses a link to a view nobody declared, and an unknown confirmationView', async () => {
    assert.match(await bootErrorOf(toolWithView('ui://nowhere')), /ViewTool\.viewed: view ui:\/\/nowhere is not declared/);
    @Module({ imports: [McpModule.forRoot({ confirmationView: 'ui://nowhere' })] })
    class NoConfirmationView {}
    assert.match(await bootError(NoConfirmationView), /McpModule option confirmationView: "ui:\/\/nowhere" is not a declared view/);
  });
  it('refuses a visibility other than model and app', async () => {
    const message = await bootErrorOf(toolWithView({ uri: 'ui://a/b', html: '<p>x</p>' }, ['user']));
    assert.match(message, /ViewTool\.viewed: visibility lists who may call the tool, one or both of 'model' and 'app', got \["user"\]/);
  });
});
