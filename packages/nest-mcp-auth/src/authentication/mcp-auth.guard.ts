import { HttpException, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { McpRequestGuard } from '@nest-mcp/core';
import { exceptionHeaders } from '@nest-mcp/core/extensions';
import { mcpPrincipalOf } from '../principal/mcp-principal.js';
import { McpAuthenticator } from './mcp-authenticator.js';
import { MCP_PUBLIC_ROUTE } from './public-route.decorator.js';

/**
 * Every route needs a valid token unless marked `@PublicRoute()`. `McpAuthModule` registers it as a
 * global guard (`registerGuard: false` leaves the order of the global guards to the application). A
 * request guard (`@McpRequestGuard()`): for MCP it runs once per HTTP request, on the endpoint,
 * before any method (`server/discover` included), not again when a tool runs in-process. A refusal
 * carries its `WWW-Authenticate` challenge onto the answer, on REST routes too.
 */
@Injectable()
@McpRequestGuard()
export class McpAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: McpAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(MCP_PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<Request>();
    // Authenticated already: before its large body was read, or a request the application built with its caller.
    if (mcpPrincipalOf(req)) return true;
    try {
      await this.authenticator.authenticate(req);
    } catch (error) {
      if (error instanceof HttpException) {
        const res = context.switchToHttp().getResponse<Response>();
        for (const [name, value] of Object.entries(exceptionHeaders(error))) if (!res.headersSent) res.setHeader(name, value);
      }
      throw error;
    }
    return true;
  }
}
