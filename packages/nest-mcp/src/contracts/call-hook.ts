import type { McpRequestContext } from '../mcp-invocation.js';

/** One call of a capability: `tools/call`, `resources/read`, `prompts/get` or `completion/complete`. */
export interface McpCall {
  context: McpRequestContext;
  method: 'tools/call' | 'resources/read' | 'prompts/get' | 'completion/complete';
  /**
   * Tool or prompt name, or resource URI, as the client sent it; for a completion, the prompt
   * name or template URI and the argument: `billing://customers/{id}#id`.
   */
  target: string | undefined;
  /** The arguments as the client sent them (before validation); for a completion, `{ argument, context }`. */
  arguments: Record<string, unknown> | undefined;
  /** True for reads: `resources/read`, `prompts/get`, completions, and tools annotated `readOnlyHint`. */
  readOnly: boolean;
}

/**
 * Runs around every capability call, including refused and failed ones: where an application
 * adds a transaction and an audit trail. Given as the `callHook` option of `McpModule.forRoot()`.
 * `proceed()` resolves with the result the client will get (an `isError` tool result included)
 * or throws what will become a JSON-RPC error.
 */
export interface McpCallHook {
  around<T>(call: McpCall, proceed: () => Promise<T>): Promise<T>;
}

export const MCP_CALL_HOOK = Symbol('MCP_CALL_HOOK');

/** The default hook: runs the call as it is. */
export class PassThroughCallHook implements McpCallHook {
  around<T>(_call: McpCall, proceed: () => Promise<T>): Promise<T> {
    return proceed();
  }
}
