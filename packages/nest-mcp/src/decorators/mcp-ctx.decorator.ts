import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { McpExecutionContext } from '../invocation/mcp-execution-context.js';

/**
 * Injects the `McpInvocation` into a controller route handler that is also an MCP tool;
 * `undefined` when the route is called over plain HTTP.
 */
export const McpCtx = createParamDecorator((_data: unknown, context: ExecutionContext) => McpExecutionContext.invocation(context));
