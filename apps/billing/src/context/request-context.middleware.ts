import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Channel } from '../generated/prisma/client.js';
import { principalOf } from '../identity/request-principal.js';
import { MCP_OPTIONS, type ResolvedMcpOptions } from '@nest-mcp/core/extensions';
import { RequestContext, type RequestState } from './request-context.js';
import { routeChannel } from './request-channel.js';

/**
 * Opens the request context. Registered as Nest middleware, after the body readers, so the
 * context survives into guards, interceptors and handlers. The channel (`mcp`, `panel`, `api`)
 * is read from the route that served the request, when a row is written (see `routeChannel`).
 */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware {
  constructor(@Inject(MCP_OPTIONS) private readonly mcp: ResolvedMcpOptions) {}

  use(req: Request, _res: Response, next: NextFunction): void {
    RequestContext.run(new HttpRequestState(req, this.mcp.path), next);
  }
}

/** A request's state whose channel follows the matched route (the middleware runs before routing). */
class HttpRequestState implements RequestState {
  workspace: RequestState['workspace'];
  private given: RequestState['principal'];

  constructor(
    readonly request: Request,
    private readonly mcpPath: string,
  ) {}

  /** The request's caller as authenticated (McpAuthGuard, before a large body, a stream's revalidation), unless set here. */
  get principal(): RequestState['principal'] {
    return this.given ?? principalOf(this.request);
  }

  set principal(principal: RequestState['principal']) {
    this.given = principal;
  }

  get channel(): Channel {
    return routeChannel(this.request, this.mcpPath);
  }
}
