/**
 * A host for app views in tests (packages/nest-mcp/docs/app-views.md): what Claude, ChatGPT or VS Code do with a tool
 * that links a `ui://` view, on a loopback page Chromium opens. In Node, as a host's backend does,
 * it lists the tools, reads the view the tool links (`resources/read`) and calls the tool; the page
 * then embeds the view with the extension's own host side (`AppBridge` of
 * `@modelcontextprotocol/ext-apps`, bundled for the browser with esbuild): a sandboxed iframe
 * (`allow-scripts` only: an opaque origin, no access to the page), the view's document as
 * `srcdoc`, `ui/initialize` answered, then `ui/notifications/tool-input` and `tool-result` sent. A
 * `tools/call` the view makes goes through the host page to this server, which forwards it to the
 * MCP endpoint with the test's token, as a host forwards it to its MCP client.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Frame, Page } from 'playwright-core';
import { MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION } from '@nest-mcp/core/extensions';
import { callStateless } from '@nest-mcp/core/testing';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** What the host declares on each request: the extension, with the MIME type it renders. */
export const APPS_HOST_CAPABILITIES = { extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } };

export interface AppsHostOptions {
  mcpUrl: string;
  /** Sent as `Authorization: Bearer …` on every request to the MCP endpoint. */
  token?: string;
  /** More headers for the MCP endpoint (e.g. a test policy's). */
  headers?: Record<string, string>;
}

/** A `tools/call` the view made through the host. */
export interface ViewToolCall {
  name: string;
  arguments: Record<string, unknown>;
  result: Record<string, unknown>;
}

export interface RenderedView {
  /** The view's frame, once it answered `ui/initialize` and got the tool's input and result. */
  frame: Frame;
  uri: string;
  /** The view as `resources/read` served it. */
  content: { uri: string; mimeType: string; text: string; _meta?: { ui?: Record<string, unknown> } };
  /** The tool's result the view was given. */
  toolResult: Record<string, unknown>;
}

export interface AppsHost {
  url: string;
  /** The `tools/call` requests the views made, in order. */
  viewCalls: ViewToolCall[];
  /** Opens the host page on `page`: calls `tool` with `args` and renders the view it links. */
  render(page: Page, tool: string, args: Record<string, unknown>): Promise<RenderedView>;
  /** Asks the view to tear down (`ui/resource-teardown`), as a host does before it removes the frame. */
  teardown(page: Page): Promise<void>;
  close(): Promise<void>;
}

/** The host side of ext-apps, bundled once per process for the browser. */
let bridgeBundle: Promise<string> | undefined;
function hostBundle(): Promise<string> {
  bridgeBundle ??= build({
    stdin: {
      contents:
        "import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';\n" +
        'window.McpAppsHost = { AppBridge, PostMessageTransport };\n',
      resolveDir: resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'),
      loader: 'js',
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0].text);
  return bridgeBundle;
}

/** The page's own script: embed the view, speak to it through AppBridge, forward its tool calls. */
const HOST_SCRIPT = `
const config = JSON.parse(document.getElementById('config').textContent);
const { AppBridge, PostMessageTransport } = window.McpAppsHost;
window.hostState = { initialized: false, delivered: false, sizes: [], teardown: undefined, errors: [] };
const frame = document.createElement('iframe');
frame.setAttribute('sandbox', 'allow-scripts');
frame.setAttribute('title', config.uri);
frame.style.cssText = 'width: 100%; border: ' + (config.prefersBorder === false ? '0' : '1px solid #ccc');
frame.srcdoc = config.html;
document.body.appendChild(frame);
const bridge = new AppBridge(null, { name: 'apps-host', version: '1.0.0' }, { serverTools: {}, logging: {} }, {
  hostContext: { theme: 'light', displayMode: 'inline', platform: 'web' },
});
bridge.oncalltool = async (params) => {
  const answer = await fetch('/tools/call', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
  return answer.json();
};
bridge.onsizechange = ({ width, height }) => {
  window.hostState.sizes.push({ width, height });
  if (height) frame.style.height = height + 'px';
};
bridge.oninitialized = async () => {
  window.hostState.initialized = true;
  await bridge.sendToolInput({ arguments: config.toolInput });
  await bridge.sendToolResult(config.toolResult);
  window.hostState.delivered = true;
};
window.teardownView = async () => { window.hostState.teardown = await bridge.teardownResource({}); };
bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow)).catch((error) => window.hostState.errors.push(String(error)));
`;

export async function startAppsHost(options: AppsHostOptions): Promise<AppsHost> {
  const bundle = await hostBundle();
  const viewCalls: ViewToolCall[] = [];
  const pages = new Map<string, string>();
  const mcp = async (method: string, params: Record<string, unknown>) => {
    const { body } = await callStateless(options.mcpUrl, method, params, {
      ...(options.token ? { token: options.token } : {}),
      capabilities: APPS_HOST_CAPABILITIES,
      clientInfo: { name: 'apps-host', version: '1.0.0' },
      ...(options.headers ? { headers: options.headers } : {}),
    });
    if (body.error) throw new Error(`${method} answered ${body.error.code}: ${body.error.message}`);
    return body.result as Record<string, any>;
  };

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://host');
    if (request.method === 'GET' && pages.has(url.pathname)) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages.get(url.pathname));
      return;
    }
    if (request.method === 'POST' && url.pathname === '/tools/call') {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      request.on('end', () => {
        const params = JSON.parse(raw) as { name: string; arguments?: Record<string, unknown> };
        mcp('tools/call', { name: params.name, arguments: params.arguments ?? {} }).then(
          (result) => {
            viewCalls.push({ name: params.name, arguments: params.arguments ?? {}, result });
            response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
          },
          (error: Error) => {
            const result = { isError: true, content: [{ type: 'text', text: error.message }] };
            viewCalls.push({ name: params.name, arguments: params.arguments ?? {}, result });
            response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
          },
        );
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    viewCalls,
    async render(page, tool, args) {
      const listed = (await mcp('tools/list', {})).tools as Array<{ name: string; _meta?: { ui?: { resourceUri?: string } } }>;
      const uri = listed.find((entry) => entry.name === tool)?._meta?.ui?.resourceUri;
      if (!uri) throw new Error(`the tool ${tool} links no view in tools/list (or the caller cannot see it)`);
      const [content] = (await mcp('resources/read', { uri })).contents as RenderedView['content'][];
      if (content.mimeType !== MCP_APP_MIME_TYPE) throw new Error(`${uri} is ${content.mimeType}, not an app view`);
      const toolResult = await mcp('tools/call', { name: tool, arguments: args });
      const config = { uri, html: content.text, prefersBorder: content._meta?.ui?.prefersBorder, toolInput: args, toolResult };
      const path = `/host/${pages.size + 1}`;
      pages.set(
        path,
        '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>apps host</title></head><body>' +
          `<script type="application/json" id="config">${JSON.stringify(config).replace(/</g, '\\u003c')}</script>` +
          `<script>${bundle}</script><script>${HOST_SCRIPT}</script></body></html>`,
      );
      await page.goto(url + path);
      await page.waitForFunction('window.hostState?.delivered === true || window.hostState?.errors.length > 0');
      const errors = await page.evaluate<string[]>('window.hostState.errors');
      if (errors.length) throw new Error(`the host could not connect to the view: ${errors.join('; ')}`);
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      if (!frame) throw new Error('the host page has no view frame');
      return { frame, uri, content, toolResult };
    },
    async teardown(page) {
      await page.evaluate('window.teardownView()');
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
