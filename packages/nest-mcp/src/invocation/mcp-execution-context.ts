import type { ExecutionContext } from '@nestjs/common';
import type { McpInvocation } from './mcp-invocation.js';

/** The `ExecutionContext.getType()` of a handler invoked through MCP. */
export const MCP_CONTEXT_TYPE = 'mcp';

/**
 * Reads the MCP side of an `ExecutionContext`, as `GqlExecutionContext` does for GraphQL.
 * `context.switchToHttp().getRequest()` keeps working: argument 0 is the HTTP request that
 * carried the MCP message, so HTTP guards (auth, tenancy) run unchanged.
 */
export class McpExecutionContext {
  static isMcp(context: ExecutionContext): boolean {
    return context.getType<string>() === MCP_CONTEXT_TYPE;
  }

  /** The invocation, or undefined when the handler runs over plain HTTP. */
  static invocation(context: ExecutionContext): McpInvocation | undefined {
    return McpExecutionContext.isMcp(context) ? context.getArgByIndex<McpInvocation>(1) : undefined;
  }
}
