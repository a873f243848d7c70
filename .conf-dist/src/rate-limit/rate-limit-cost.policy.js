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
import { MCP_BODY_READ, MCP_TOOL_METADATA, McpRegistry } from '../mcp/index.js';
import { RATE_LIMIT_CONFIG } from './rate-limit.config.js';
const SAFE_HTTP_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * Prices a request in limit units, from what it may do rather than from the bytes it carries:
 * - MCP `tools/call`: by the tool's annotations: read-only → `read` (1), destructive → `destructive`
 *   (10), any other → `write` (5); an unknown tool → `default` (its answer is an error anyway).
 * - Every other MCP message (`initialize`, `ping`, `server/discover`, lists, `resources/read`,
 *   `prompts/get`, `completion/complete`, notifications) → `default` (1): cheap, but not free, so a
 *   loop of pings is still bounded.
 * - REST: a route that is also a tool costs what the tool costs (same handler, same work);
 *   otherwise GET/HEAD/OPTIONS → `default`, other methods → `write`.
 */
let RateLimitCostPolicy = class RateLimitCostPolicy {
    config;
    registry;
    restCosts = new WeakMap();
    constructor(config, registry) {
        this.config = config;
        this.registry = registry;
    }
    costOf(context, req) {
        if (req[MCP_BODY_READ])
            return this.mcpCost(req.body);
        return { cost: this.restCost(context.getHandler(), req.method), what: `${req.method} ${req.path}` };
    }
    /** Cost of one JSON-RPC message (the parsed body; anything malformed costs the default). */
    mcpCost(message) {
        const { method, params } = (isObject(message) ? message : {});
        if (method === 'tools/call' && isObject(params) && typeof params.name === 'string') {
            const tool = this.registry.tool(params.name);
            if (tool)
                return { cost: this.toolCost(tool.annotations), what: `tools/call ${params.name}` };
        }
        return { cost: this.config.costs.default, what: typeof method === 'string' ? method : 'this request' };
    }
    toolCost(annotations) {
        const { costs } = this.config;
        if (annotations.readOnlyHint)
            return costs.read;
        return annotations.destructiveHint ? costs.destructive : costs.write;
    }
    restCost(handler, httpMethod) {
        const safe = SAFE_HTTP_METHODS.has(httpMethod);
        let cost = this.restCosts.get(handler);
        if (cost === undefined) {
            const toolName = Reflect.getMetadata(MCP_TOOL_METADATA, handler)?.name;
            const tool = toolName ? this.registry.tool(toolName) : undefined;
            cost = tool ? this.toolCost(tool.annotations) : -1;
            this.restCosts.set(handler, cost);
        }
        if (cost >= 0)
            return cost;
        return safe ? this.config.costs.default : this.config.costs.write;
    }
};
RateLimitCostPolicy = __decorate([
    Injectable(),
    __param(0, Inject(RATE_LIMIT_CONFIG)),
    __metadata("design:paramtypes", [Object, McpRegistry])
], RateLimitCostPolicy);
export { RateLimitCostPolicy };
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
//# sourceMappingURL=rate-limit-cost.policy.js.map