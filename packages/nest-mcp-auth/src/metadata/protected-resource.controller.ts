import { Controller, Get } from '@nestjs/common';
import { McpRegistry } from '@nest-mcp/core/extensions';
import { McpAuthenticator } from '../authentication/mcp-authenticator.js';
import { PublicRoute } from '../authentication/public-route.decorator.js';

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728): tells an MCP client which authorization
 * servers issue tokens for this resource and which scopes exist. Served at the root and, per
 * RFC 9728 §3.1, at the path-suffixed location of the MCP endpoint.
 */
@PublicRoute()
@Controller('.well-known')
export class McpProtectedResourceController {
  constructor(
    private readonly authenticator: McpAuthenticator,
    private readonly registry: McpRegistry,
  ) {}

  @Get(['oauth-protected-resource', 'oauth-protected-resource/*path'])
  metadata() {
    const { settings } = this.authenticator;
    const named = [...this.registry.tools, ...this.registry.resources, ...this.registry.templates, ...this.registry.prompts].flatMap(
      (entry) => entry.scopes,
    );
    return {
      resource: this.authenticator.resourceUrl,
      authorization_servers: settings.authorizationServers,
      scopes_supported: [...new Set([...(settings.scopes ?? []), ...named])].sort(),
      bearer_methods_supported: ['header'],
      ...(settings.resourceName !== undefined ? { resource_name: settings.resourceName } : {}),
    };
  }
}
