import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { McpRequestGuard } from '@nest-mcp/core';
import { RequestContext } from '../context/request-context.js';
import { AuthenticationService } from './authentication.service.js';
import { PUBLIC_ROUTE } from './public.decorator.js';
import { principalOf, setPrincipal } from './request-principal.js';

/**
 * Global guard: every route needs a valid token unless marked `@Public()`. A request guard
 * (`@McpRequestGuard()`): for MCP it runs once per HTTP request, on the endpoint, before any
 * method (`server/discover` included), and not again when a tool runs in-process.
 */
@Injectable()
@McpRequestGuard()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authentication: AuthenticationService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<Request>();
    // A large body is authenticated before it is read (app.setup.ts): not checked twice.
    if (principalOf(req)) return true;
    const principal = await this.authentication.authenticate(req);
    setPrincipal(req, principal);
    const state = RequestContext.current();
    if (state) state.principal = principal;
    return true;
  }
}
