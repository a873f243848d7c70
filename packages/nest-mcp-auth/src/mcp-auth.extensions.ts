import type { McpExtensionOptions } from '@nest-mcp/core';
import { McpScopePolicy } from './policy/mcp-scope.policy.js';
import { McpAuthTaskCallers } from './tasks/mcp-auth-task.callers.js';

/**
 * The layer's extension points from `McpAuthModule` (`McpModule.forRoot({ ...mcpAuthExtensions() })`):
 * - `accessPolicy`: lists and calls allowed by the token's scopes, the step-up challenge for the
 *   rest. An application with a subclass of `McpScopePolicy` gives `accessPolicy: { useExisting: ItsPolicy }`;
 * - `taskCallers`: a task's run acts as the principal that created it (`McpAuthTaskCallers`), on
 *   any replica. An application that checks more at each run (revocations, memberships) gives its own.
 */
export function mcpAuthExtensions(): Required<Pick<McpExtensionOptions, 'accessPolicy' | 'taskCallers'>> {
  return { accessPolicy: { useExisting: McpScopePolicy }, taskCallers: { useExisting: McpAuthTaskCallers } };
}
