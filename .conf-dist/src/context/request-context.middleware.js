var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Inject, Injectable } from '@nestjs/common';
import { principalOf } from '../identity/request-principal.js';
import { MCP_OPTIONS } from '../mcp/index.js';
import { RequestContext } from './request-context.js';
import { routeChannel } from './request-channel.js';
/**
 * Opens the request context. Registered as Nest middleware, after the body readers, so the
 * context survives into guards, interceptors and handlers. The channel (`mcp`, `panel`, `api`)
 * is read from the route that served the request, when a row is written (see `routeChannel`).
 */
let RequestContextMiddleware = class RequestContextMiddleware {
    mcp;
    constructor(mcp) {
        this.mcp = mcp;
    }
    use(req, _res, next) {
        RequestContext.run(new HttpRequestState(req, this.mcp.path), next);
    }
};
RequestContextMiddleware = __decorate([
    Injectable(),
    __param(0, Inject(MCP_OPTIONS)),
    __metadata("design:paramtypes", [Object])
], RequestContextMiddleware);
export { RequestContextMiddleware };
/** A request's state whose channel follows the matched route (the middleware runs before routing). */
class HttpRequestState {
    req;
    mcpPath;
    principal;
    workspace;
    constructor(req, mcpPath) {
        this.req = req;
        this.mcpPath = mcpPath;
        // A large body is authenticated before it is read (app.setup.ts): the guard then skips.
        this.principal = principalOf(req);
    }
    get channel() {
        return routeChannel(this.req, this.mcpPath);
    }
}
//# sourceMappingURL=request-context.middleware.js.map