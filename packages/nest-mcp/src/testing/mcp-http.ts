import { learnedHeaderParameters, learnHeaderParameters, paramHeaders, refusedForParamHeaders, setsParamHeaders } from './param-headers.js';

/** Hand-made MCP requests for tests that check the wire rules byte by byte. */

export const STATELESS_VERSION = '2026-07-28';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty. */
  body: any;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<HttpAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    signal,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

/**
 * A POST as a bare client sends it: the body as given (text or bytes), `Content-Type: application/json`
 * and no other header but `headers`; never throws on an HTTP status.
 */
export async function postBare(url: string, body: string | Uint8Array, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
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

export interface StatelessOptions {
  /** Sent as `Authorization: Bearer …`. */
  token?: string;
  id?: number | string;
  /** `_meta` client capabilities (default none: no elicitation, so destructive tools answer with an approval link). */
  capabilities?: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
  /** More `_meta` entries, after the envelope's. */
  meta?: Record<string, unknown>;
  /** More headers, after the MCP ones and the token's. */
  headers?: Record<string, string>;
  /** Aborts the request (a client-side timeout). */
  signal?: AbortSignal;
}

/**
 * One well-formed 2026-era request; never throws on an HTTP status (a refused or cut connection does throw).
 * A `tools/call` mirrors the tool's header parameters into `Mcp-Param-*` headers as the official
 * client does: learned from `tools/list` (same token and headers) the first time the endpoint
 * refuses a call for a missing one, then the call is sent again. A test that sets its own
 * `Mcp-Param-*` headers gets exactly those.
 */
export async function callStateless(url: string, method: string, params: Record<string, unknown> = {}, options: StatelessOptions = {}) {
  const request = statelessRequest(method, params, options.id);
  const meta: Record<string, unknown> = request.body.params._meta;
  if (options.capabilities) meta['io.modelcontextprotocol/clientCapabilities'] = options.capabilities;
  if (options.clientInfo) meta['io.modelcontextprotocol/clientInfo'] = options.clientInfo;
  Object.assign(meta, options.meta);
  const token: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const send = (mirrored: Record<string, string>) =>
    post(url, request.body, { ...request.headers, ...mirrored, ...token, ...options.headers }, options.signal);
  if (method !== 'tools/call' || setsParamHeaders(options.headers)) return send({});
  const sent = paramHeaders(learnedHeaderParameters(url, params.name), params.arguments);
  const answer = await send(sent);
  if (!refusedForParamHeaders(answer)) return answer;
  await learnTools(url, options);
  const mirrored = paramHeaders(learnedHeaderParameters(url, params.name), params.arguments);
  return JSON.stringify(mirrored) === JSON.stringify(sent) ? answer : send(mirrored);
}

/** Reads every page of the endpoint's `tools/list` as this caller, for the tools' header parameters. */
async function learnTools(url: string, options: StatelessOptions): Promise<void> {
  let cursor: string | undefined;
  do {
    const { body } = await callStateless(url, 'tools/list', cursor ? { cursor } : {}, { token: options.token, headers: options.headers });
    learnHeaderParameters(url, body?.result?.tools ?? []);
    cursor = body?.result?.nextCursor;
  } while (cursor);
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

/** The JSON envelope a tool result carries in its text block (and as structuredContent when the tool declares an outputSchema). */
export interface Envelope {
  ok: boolean;
  status: string;
  data?: any;
  /** Entries as the layer shapes them, plus the app's own fields (McpModuleOptions.toolErrorFields). */
  errors: Array<{ code: string; message: string; field?: string; retryable: boolean; [extra: string]: any }>;
  nextQuestion?: string;
  toolName: string;
  safety: string;
  approval?: { id: string; url: string; expires_at: string };
}

/**
 * The envelope of a `tools/call` answer's result (its JSON-RPC message), or undefined when there
 * is none (a JSON-RPC error): typed as present because tests read it where the call succeeded.
 */
export function envelopeOf(message: any): Envelope {
  const text = message?.result?.content?.[0]?.text;
  return (typeof text === 'string' ? JSON.parse(text) : undefined) as Envelope;
}

export interface ToolAnswer extends HttpAnswer {
  /** The result's JSON envelope (see {@link envelopeOf}). */
  envelope: Envelope;
  isError: boolean;
}

export interface ToolCallOptions extends StatelessOptions {
  /** More params beside name and arguments: `requestState`, `inputResponses`. */
  params?: Record<string, unknown>;
}

/** One 2026-era `tools/call`: the HTTP answer and the tool's envelope. */
export async function callTool(
  url: string,
  name: string,
  args: Record<string, unknown> = {},
  options: ToolCallOptions = {},
): Promise<ToolAnswer> {
  const answer = await callStateless(url, 'tools/call', { name, arguments: args, ...options.params }, options);
  return { ...answer, envelope: envelopeOf(answer.body), isError: answer.body?.result?.isError === true };
}

/** The tools a token is shown by a 2026-era `tools/list`, by name. */
export async function toolsByName(url: string, token: string): Promise<Map<string, any>> {
  const { body } = await callStateless(url, 'tools/list', {}, { token });
  return new Map(body.result.tools.map((tool: { name: string }) => [tool.name, tool]));
}
