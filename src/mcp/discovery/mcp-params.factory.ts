import { RouteParamtypes } from '@nestjs/common/internal';
import type { Request } from 'express';
import type { McpInvocation } from '../mcp-invocation.js';

/** Param type of the synthetic second argument given to provider methods: the invocation. */
export const MCP_INVOCATION_PARAM = 100;

/**
 * Feeds route-parameter decorators of a handler invoked through MCP: `@Body()`, `@Query()` and
 * `@Param()` read the validated input (whole, or one property by name), `@Req()` and `@Headers()`
 * the HTTP request that carried the message. `@Res()` has no meaning here and gets undefined.
 */
export class McpParamsFactory {
  exchangeKeyForValue(type: number, data: unknown, args: [Request, McpInvocation]): unknown {
    const [request, invocation] = args;
    const input = invocation.input as Record<string, unknown> | undefined;
    switch (type) {
      case RouteParamtypes.BODY:
      case RouteParamtypes.QUERY:
      case RouteParamtypes.PARAM:
        return typeof data === 'string' ? input?.[data] : input;
      case RouteParamtypes.REQUEST:
        return request;
      case RouteParamtypes.HEADERS:
        return typeof data === 'string' ? request.headers[data.toLowerCase()] : request.headers;
      case RouteParamtypes.IP:
        return request.ip;
      case RouteParamtypes.HOST:
        return typeof data === 'string' ? (request as unknown as { hosts?: Record<string, unknown> }).hosts?.[data] : undefined;
      case MCP_INVOCATION_PARAM:
        return invocation;
      default:
        return undefined;
    }
  }
}
