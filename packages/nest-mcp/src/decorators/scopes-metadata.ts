import { MCP_SCOPES_METADATA } from './mcp-metadata.keys.js';

/**
 * `scopes` of `@McpTool`/`@McpResource`/`@McpPrompt` are also the method's `@RequiredScopes()`,
 * so the application's REST scope guard protects a controller route with the same declaration
 * as its tool. Never overwrites an explicit `@RequiredScopes()`: when both are present and differ,
 * the explorer fails the boot (decorators apply bottom-up, so either may come first).
 */
export function declareMethodScopes(kind: string, method: object, scopes: readonly string[] | undefined): void {
  if (scopes === undefined) return;
  if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string' || !scope.trim())) {
    throw new Error(`@${kind}: scopes must be a list of non-empty strings, got ${JSON.stringify(scopes)}`);
  }
  if (!Reflect.hasOwnMetadata(MCP_SCOPES_METADATA, method)) Reflect.defineMetadata(MCP_SCOPES_METADATA, [...scopes], method);
}
