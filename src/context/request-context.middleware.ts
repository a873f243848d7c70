import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Channel } from '../generated/prisma/client.js';
import { MCP_OPTIONS, type ResolvedMcpOptions } from '../mcp/index.js';
import { RequestContext } from './request-context.js';

/**
 * Opens the request context and names the channel from the route: the MCP endpoint is `mcp`,
 * the admin panel `panel`, everything else `api`. Registered as Nest middleware, after the body
 * parsers, so the context survives into guards, interceptors and handlers.
 */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware {
  constructor(@Inject(MCP_OPTIONS) private readonly mcp: ResolvedMcpOptions) {}

  use(req: Request, _res: Response, next: NextFunction): void {
    RequestContext.run({ channel: this.channelOf(req.originalUrl) }, next);
  }

  private channelOf(url: string): Channel {
    const path = url.split('?')[0];
    if (path === this.mcp.path || path.startsWith(`${this.mcp.path}/`)) return 'mcp';
    if (path === '/admin' || path.startsWith('/admin/')) return 'panel';
    return 'api';
  }
}
