/** Hand-made MCP requests for tests that check the wire rules byte by byte. */

export const STATELESS_VERSION = '2026-07-28';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty. */
  body: any;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

/** The per-request `_meta` envelope of the 2026-07-28 era. */
export function envelope(capabilities: Record<string, unknown> = {}, clientInfo = { name: 'test-client', version: '1.0.0' }) {
  return {
    'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': clientInfo,
  };
}

/** A well-formed 2026-era request: envelope in the body, the same facts in the headers. */
export function statelessRequest(method: string, params: Record<string, unknown> = {}, id: number | string = 1) {
  const name = method === 'resources/read' ? params.uri : params.name;
  return {
    body: { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope() } },
    headers: {
      'mcp-protocol-version': STATELESS_VERSION,
      'mcp-method': method,
      ...(typeof name === 'string' && /^[\x20-\x7e]*$/.test(name) ? { 'mcp-name': name } : {}),
    } as Record<string, string>,
  };
}

export async function callStateless(url: string, method: string, params: Record<string, unknown> = {}, id: number | string = 1) {
  const request = statelessRequest(method, params, id);
  return post(url, request.body, request.headers);
}

export async function callHandshake(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  version = '2025-06-18',
  id: number | string = 1,
) {
  return post(url, { jsonrpc: '2.0', id, method, params }, { 'mcp-protocol-version': version });
}
