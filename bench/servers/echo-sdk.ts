// Case 2: the official SDK v2 reference server: createMcpHandler (stateless, per-request server
// factory) on Node's http server, wrapped with toNodeHandler, behind the SDK's own localhost
// Host/Origin guards, as the @modelcontextprotocol/node README shows for plain node:http.
import { createServer } from 'node:http';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ECHO_DESCRIPTION } from '../fixtures/echo.dto.js';
import { announceReady, exitOnSignal, fail, HOST, PORT } from './lifecycle.js';

try {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'bench-echo-sdk', version: '1.0.0' });
    server.registerTool(
      'echo',
      {
        description: ECHO_DESCRIPTION,
        inputSchema: z.object({ text: z.string().max(1000).describe('Text to echo back.') }),
        annotations: { readOnlyHint: true },
      },
      async ({ text }) => ({ content: [{ type: 'text', text }] }),
    );
    return server;
  });
  const serve = toNodeHandler(handler);
  const validateHost = localhostHostValidation();
  const validateOrigin = localhostOriginValidation();
  const http = createServer((req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    if (req.url?.split('?')[0] !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    void serve(req, res);
  });
  http.listen(PORT, HOST, () => {
    exitOnSignal();
    announceReady(http.address(), { server: '@modelcontextprotocol/server createMcpHandler + @modelcontextprotocol/node toNodeHandler' });
  });
} catch (error) {
  fail(error);
}
