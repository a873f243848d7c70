import { SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { CompletionHandler } from '../handlers/completion.handler.js';
import { LifecycleHandler } from '../handlers/lifecycle.handler.js';
import { PromptsHandler } from '../handlers/prompts.handler.js';
import { ResourcesHandler } from '../handlers/resources.handler.js';
import { ToolsHandler } from '../handlers/tools.handler.js';
import { MCP_OPTIONS } from '../mcp.constants.js';
import type { McpRequestContext } from '../mcp-invocation.js';
import type { ResolvedMcpOptions } from '../mcp-options.interface.js';
import type { InboundMessage } from '../protocol/json-rpc-message.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import type { ProtocolEra } from '../protocol/protocol-version.js';

type Params = Record<string, unknown>;
type Result = Record<string, unknown>;

interface MethodRoute {
  eras: readonly ProtocolEra[];
  /** Results filtered per caller: the 2026 era marks them `ttlMs: 0`, `cacheScope: "private"`. */
  perCaller?: boolean;
  handle(params: Params, context: McpRequestContext): Result | Promise<Result>;
}

const BOTH: readonly ProtocolEra[] = ['stateless', 'handshake'];

/** Routes one JSON-RPC request to its handler and shapes the result for the caller's era. */
@Injectable()
export class McpDispatcher {
  private readonly routes: Record<string, MethodRoute>;

  constructor(
    lifecycle: LifecycleHandler,
    tools: ToolsHandler,
    resources: ResourcesHandler,
    prompts: PromptsHandler,
    completion: CompletionHandler,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {
    this.routes = {
      'server/discover': { eras: ['stateless'], perCaller: true, handle: () => lifecycle.discover() },
      initialize: { eras: ['handshake'], handle: (p, c) => lifecycle.initialize(p, c) },
      ping: { eras: ['handshake'], handle: () => lifecycle.ping() },
      'tools/list': { eras: BOTH, perCaller: true, handle: (p, c) => tools.list(p, c) },
      'tools/call': { eras: BOTH, handle: (p, c) => tools.call(p, c) },
      'resources/list': { eras: BOTH, perCaller: true, handle: (p, c) => resources.list(p, c) },
      'resources/templates/list': { eras: BOTH, perCaller: true, handle: (p, c) => resources.listTemplates(p, c) },
      'resources/read': { eras: BOTH, perCaller: true, handle: (p, c) => resources.read(p, c) },
      'prompts/list': { eras: BOTH, perCaller: true, handle: (p, c) => prompts.list(p, c) },
      'prompts/get': { eras: BOTH, handle: (p, c) => prompts.get(p, c) },
      'completion/complete': { eras: BOTH, handle: (p, c) => completion.complete(p, c) },
    };
  }

  async dispatch(message: InboundMessage, context: McpRequestContext): Promise<Result> {
    const route = Object.hasOwn(this.routes, message.method) ? this.routes[message.method] : undefined;
    if (!route || !route.eras.includes(context.era)) {
      // The 2026 era answers an unknown method with HTTP 404; the handshake era inside a 200 (SPEC §2).
      throw new McpProtocolError(
        McpErrorCode.MethodNotFound,
        `Method not found: ${message.method}`,
        context.era === 'stateless' ? HttpStatus.NOT_FOUND : HttpStatus.OK,
      );
    }
    const result = await route.handle(message.params, context);
    return context.era === 'stateless' ? this.statelessResult(result, route) : result;
  }

  private statelessResult(result: Result, route: MethodRoute): Result {
    const meta = (result._meta as Result | undefined) ?? {};
    return {
      resultType: 'complete',
      ...result,
      ...(route.perCaller ? { ttlMs: 0, cacheScope: 'private' } : {}),
      _meta: { ...meta, [SERVER_INFO_META_KEY]: this.options.serverInfo },
    };
  }
}
