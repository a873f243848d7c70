import type { Request } from 'express';
import type { McpCapability } from '../contracts/access-policy.js';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';

const METHOD_OF: Record<McpCapability['kind'], string> = { tool: 'tools/call', resource: 'resources/read', prompt: 'prompts/get' };

const restContexts = new WeakSet<McpRequestContext>();

/**
 * What the access policy receives for a REST request to a route that is also a tool, resource or
 * prompt (`McpRestModule`): `httpRequest` is the REST request, so a policy that reads the caller
 * from it (its principal, its token's scopes, a header) decides the same way over both. No MCP
 * message exists: `protocolVersion` is empty, `method` is the call the route stands for
 * (`tools/call`, `resources/read`, `prompts/get`), capabilities and `_meta` are empty.
 * `isRestRequestContext()` tells it apart.
 */
export function restRequestContext(httpRequest: Request, kind: McpCapability['kind']): McpRequestContext {
  const context: McpRequestContext = {
    era: 'stateless',
    protocolVersion: '',
    method: METHOD_OF[kind],
    clientCapabilities: {},
    meta: {},
    httpRequest,
  };
  restContexts.add(context);
  return context;
}

/** Whether the policy is asked about a REST request (`McpRestModule`) rather than an MCP message. */
export function isRestRequestContext(context: McpRequestContext): boolean {
  return restContexts.has(context);
}
