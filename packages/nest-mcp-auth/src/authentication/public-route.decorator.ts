import { SetMetadata } from '@nestjs/common';

export const MCP_PUBLIC_ROUTE = 'nest-mcp:auth:public-route';

/**
 * A route (or every route of a controller) that `McpAuthGuard` lets through without a token: health
 * checks, documentation, sign-in pages, the OAuth metadata. Every other route needs one.
 */
export const PublicRoute = (): MethodDecorator & ClassDecorator => SetMetadata(MCP_PUBLIC_ROUTE, true);
