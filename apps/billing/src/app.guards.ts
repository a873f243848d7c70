import type { Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { McpAuthGuard } from '@nest-mcp/auth';
import { ScopeGuard } from './identity/scope.guard.js';
import { WorkspaceGuard } from './identity/workspace.guard.js';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';

/**
 * The application's global guards, in the order they run on a REST route: who is calling, in
 * which workspace, may they do this there, and can they still afford it (a REST request the others
 * refuse is not charged). Listed here, in the one module that registers them (`AppModule`), so
 * that their order does not depend on the order modules are imported in; each guard is provided
 * and exported by its own module (`McpAuthGuard` by `@nest-mcp/auth`'s `McpAuthModule`, registered with
 * `registerGuard: false` so that it takes its place here).
 *
 * Over MCP each runs once per call, where its information is (packages/nest-mcp/docs/installing.md):
 * the request guards (`@McpRequestGuard()`: authentication, rate limit) on the endpoint, for the
 * HTTP request; the capability guards (workspace, scopes) on the tool's, resource's or prompt's
 * in-process call, where its metadata and validated input exist.
 */
export const APP_GUARDS: Provider[] = [McpAuthGuard, WorkspaceGuard, ScopeGuard, RateLimitGuard].map((guard) => ({
  provide: APP_GUARD,
  useExisting: guard,
}));
