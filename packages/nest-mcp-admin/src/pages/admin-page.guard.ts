import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MCP_ADMIN_OPTIONS, type ResolvedMcpAdminOptions } from '../options/mcp-admin.options.js';
import { setVisit } from './admin-http.js';
import { McpAdminCsrf } from './csrf.js';

/** Nobody is signed in: to the identity's sign-in first. */
export class AdminSignInRequired extends Error {}

/** A state-changing request without the page's CSRF token (or from another origin). */
export class AdminCsrfRejected extends Error {}

/**
 * The pages' access check: the signed-in person (the `identity` option), and on every non-GET
 * request the page's CSRF token (`McpAdminCsrf`: double submit and Origin).
 */
@Injectable()
export class AdminPageGuard implements CanActivate {
  constructor(
    @Inject(MCP_ADMIN_OPTIONS) private readonly options: ResolvedMcpAdminOptions,
    private readonly csrf: McpAdminCsrf,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const person = await this.options.identity.person(req);
    if (!person) throw new AdminSignInRequired();
    setVisit(req, { person, csrfToken: this.csrf.token(req, res) });
    if (req.method !== 'GET' && req.method !== 'HEAD' && !this.csrf.accepts(req)) throw new AdminCsrfRejected();
    return true;
  }
}
