import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { MCP_SCOPES_METADATA } from '../mcp/index.js';
import { principalOf } from './request-principal.js';
import { ScopePolicy } from './scope.policy.js';

/** Global guard: `@RequiredScopes()` on a route (or its controller), checked by the scope policy. */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly policy: ScopePolicy,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const required = this.reflector.getAllAndOverride<string[]>(MCP_SCOPES_METADATA, [context.getHandler(), context.getClass()]);
    if (!required?.length) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const principal = principalOf(req);
    if (!principal) return false;
    this.policy.assert(principal, required, req);
    return true;
  }
}
