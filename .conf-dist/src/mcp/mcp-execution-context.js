import { MCP_CONTEXT_TYPE } from './mcp.constants.js';
/**
 * Reads the MCP side of an `ExecutionContext`, as `GqlExecutionContext` does for GraphQL.
 * `context.switchToHttp().getRequest()` keeps working: argument 0 is the HTTP request that
 * carried the MCP message, so HTTP guards (auth, tenancy) run unchanged.
 */
export class McpExecutionContext {
    static isMcp(context) {
        return context.getType() === MCP_CONTEXT_TYPE;
    }
    /** The invocation, or undefined when the handler runs over plain HTTP. */
    static invocation(context) {
        return McpExecutionContext.isMcp(context) ? context.getArgByIndex(1) : undefined;
    }
}
//# sourceMappingURL=mcp-execution-context.js.map