import { Module } from '@nestjs/common';
import { McpAuthenticator } from './authentication/mcp-authenticator.js';
import { McpAuthGuard } from './authentication/mcp-auth.guard.js';
import { McpAuthConfigurableModule } from './mcp-auth.module-definition.js';
import { McpProtectedResourceController } from './metadata/protected-resource.controller.js';
import { MCP_AUTH_OPTIONS } from './options/mcp-auth.options.js';
import { McpScopePolicy } from './policy/mcp-scope.policy.js';
import { McpAuthTaskCallers } from './tasks/mcp-auth-task.callers.js';

/**
 * The resource-server side of OAuth for `@nest-mcp/core`: `McpAuthModule.forRoot({ issuers, … })`
 * (or `forRootAsync`) once, in the root module, beside `McpModule.forRoot({ ...mcpAuthExtensions() })`.
 * It authenticates every route (`McpAuthGuard`, global unless `registerGuard: false`), serves the
 * protected-resource metadata at `/.well-known/oauth-protected-resource`, and provides the scope
 * policy the layer asks before every list and call.
 */
@Module({
  controllers: [McpProtectedResourceController],
  providers: [McpAuthenticator, McpAuthGuard, McpScopePolicy, McpAuthTaskCallers],
  exports: [McpAuthenticator, McpAuthGuard, McpScopePolicy, McpAuthTaskCallers, MCP_AUTH_OPTIONS],
})
export class McpAuthModule extends McpAuthConfigurableModule {}
