import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { McpRegistry } from '@nest-mcp/core/extensions';
import { AuthenticationService } from './authentication.service.js';
import { IDENTITY_CONFIG, type IdentityConfig } from './identity.config.js';
import { Public } from './public.decorator.js';
import { ScopePolicy } from './scope.policy.js';

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728): tells an MCP client which authorization
 * server issues tokens for this resource and which scopes exist. Served at the root and, per
 * RFC 9728 §3.1, at the path-suffixed location of the MCP endpoint.
 */
@ApiExcludeController()
@Public()
@Controller('.well-known')
export class ProtectedResourceController {
  constructor(
    private readonly authentication: AuthenticationService,
    private readonly registry: McpRegistry,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    private readonly scopes: ScopePolicy,
  ) {}

  @Get(['oauth-protected-resource', 'oauth-protected-resource/*path'])
  metadata() {
    const declared = [...this.registry.tools, ...this.registry.resources, ...this.registry.templates, ...this.registry.prompts].flatMap(
      (entry) => entry.scopes,
    );
    return {
      resource: this.authentication.resourceUrl,
      authorization_servers: this.config.authorizationServers,
      scopes_supported: [...new Set([...this.scopes.declaredScopes(), ...declared])].sort(),
      bearer_methods_supported: ['header'],
      resource_name: 'Billing MCP server',
    };
  }
}
