import { argumentAt, headerTextOf } from '../protocol/mcp-param.headers.js';
import { headerParametersOf, type McpHeaderParameter } from '../schema/header-parameters.js';

/**
 * `Mcp-Param-*` headers as a 2026-07-28 client sends them (docs/tools.md, "Header parameters"):
 * the test helpers mirror a tool's header parameters the way the official client does, learning
 * them from `tools/list` the first time the endpoint refuses a call for a missing header.
 */

const SENTINEL = /^=\?base64\?.*\?=$/;
/** What a plain header value may be: visible ASCII and inner spaces or tabs, nothing to trim. */
const PLAIN = /^[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?$/;

/** The header parameters each endpoint's tools declared, as learned from its `tools/list`. */
const learned = new Map<string, Map<string, readonly McpHeaderParameter[]>>();

/** A value as a header carries it: as is when it can be, otherwise `=?base64?<base64 of UTF-8>?=`. */
export function encodeParamHeaderValue(text: string): string {
  return PLAIN.test(text) && !SENTINEL.test(text) ? text : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

/** The `Mcp-Param-*` headers of a call with these arguments; none for an argument that is absent, null, not a string, number or boolean, or a number beyond the safe integers. */
export function paramHeaders(parameters: readonly McpHeaderParameter[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const parameter of parameters) {
    // What the endpoint expects a client to send (protocol/mcp-param.headers.ts), encoded as it decodes it.
    const text = headerTextOf(argumentAt(args, parameter.path));
    if (text !== undefined) headers[`Mcp-Param-${parameter.name}`] = encodeParamHeaderValue(text);
  }
  return headers;
}

/** Whether a test sets its own `Mcp-Param-*` headers: the helpers then add none. */
export function setsParamHeaders(headers: Record<string, string> | undefined): boolean {
  return Object.keys(headers ?? {}).some((name) => name.toLowerCase().startsWith('mcp-param-'));
}

/** The header parameters of a tool already learned for this endpoint (none before its first `tools/list`). */
export function learnedHeaderParameters(url: string, tool: unknown): readonly McpHeaderParameter[] {
  return (typeof tool === 'string' && learned.get(url)?.get(tool)) || [];
}

/** Records what a `tools/list` page said about each tool's header parameters. */
export function learnHeaderParameters(url: string, tools: ReadonlyArray<{ name: string; inputSchema?: unknown }>): void {
  const byTool = learned.get(url) ?? new Map<string, readonly McpHeaderParameter[]>();
  for (const tool of tools) {
    try {
      byTool.set(tool.name, headerParametersOf(tool.inputSchema));
    } catch {
      byTool.set(tool.name, []); // a client leaves out a tool it cannot mirror; the call then shows the refusal
    }
  }
  learned.set(url, byTool);
}

/** An answer refusing a call for its `Mcp-Param-*` headers (HTTP 400, -32020): a client then reads `tools/list` and retries. */
export function refusedForParamHeaders(answer: { status: number; body: any }): boolean {
  const error = answer.body?.error;
  return answer.status === 400 && error?.code === -32020 && typeof error.message === 'string' && error.message.includes('Mcp-Param-');
}
