import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { MCP_TOOL_METADATA, mcpMessageOf, McpRegistry, type McpRequestMessage } from '@nest-mcp/core/extensions';
import { RATE_LIMIT_CONFIG, type RateLimitConfig } from './rate-limit.config.js';

/** What a request costs, and how to name it in a refusal. */
export interface RequestCost {
  cost: number;
  /** e.g. `tools/call billing_invoice_cancel`, `POST /v1/customers`. */
  what: string;
}

interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
}

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
@Injectable()
export class RateLimitCostPolicy {
  private readonly restCosts = new WeakMap<object, number>();

  constructor(
    @Inject(RATE_LIMIT_CONFIG) private readonly config: RateLimitConfig,
    private readonly registry: McpRegistry,
  ) {}

  costOf(context: ExecutionContext, req: Request): RequestCost {
    const mcp = mcpMessageOf(req);
    if (mcp) return this.mcpCost(mcp);
    return { cost: this.restCost(context.getHandler(), req.method), what: `${req.method} ${req.path}` };
  }

  /** Cost of one MCP message, priced by the tool the layer resolved where it read it (a body that is no message costs the default). */
  mcpCost(read: Pick<McpRequestMessage, 'message' | 'tool'>): RequestCost {
    if (read.tool) return { cost: this.toolCost(read.tool.annotations), what: `tools/call ${read.tool.name}` };
    return { cost: this.config.costs.default, what: read.message?.method ?? 'this request' };
  }

  toolCost(annotations: ToolAnnotations): number {
    const { costs } = this.config;
    if (annotations.readOnlyHint) return costs.read;
    return annotations.destructiveHint ? costs.destructive : costs.write;
  }

  private restCost(handler: object, httpMethod: string): number {
    const safe = SAFE_HTTP_METHODS.has(httpMethod);
    let cost = this.restCosts.get(handler);
    if (cost === undefined) {
      const toolName = (Reflect.getMetadata(MCP_TOOL_METADATA, handler) as { name?: string } | undefined)?.name;
      const tool = toolName ? this.registry.tool(toolName) : undefined;
      cost = tool ? this.toolCost(tool.annotations) : -1;
      this.restCosts.set(handler, cost);
    }
    if (cost >= 0) return cost;
    return safe ? this.config.costs.default : this.config.costs.write;
  }
}
