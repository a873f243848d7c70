import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { McpRestInputSchemaChecks } from '../decorators/rest-input-schema.interceptor.js';
import type { RawInputSchema } from '../schema/raw-json-schema.js';
import { restArgumentsException } from './mcp-rest-validation.pipe.js';

/** A raw-schema tool's route, as the explorer resolved it at boot. */
export interface RestInputSchemaRoute {
  schema: RawInputSchema;
  /** The tool's arguments in a REST request: what the route's `@Body()`, `@Query()` and `@Param()` read. */
  argumentsOf(request: Request): unknown;
}

/**
 * Holds REST requests to the routes of tools with an `inputSchema` to that schema (see
 * `McpRestInputSchemaInterceptor`): the same compiled schema and the same violations as the MCP
 * call, answered with the 400 body of a DTO's refusal (`restArgumentsException`).
 */
@Injectable()
export class McpRestInputSchemas implements McpRestInputSchemaChecks {
  private readonly routes = new Map<Function, RestInputSchemaRoute>();

  /** At boot (`McpExplorer`): `handler` is the method of a tool with an `inputSchema`. */
  add(handler: Function, route: RestInputSchemaRoute): void {
    this.routes.set(handler, route);
  }

  check(handler: Function, request: Request): void {
    const route = this.routes.get(handler);
    // A method the decorator marked that this application does not publish (mounted elsewhere): as it is.
    if (!route) return;
    const args = route.argumentsOf(request);
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw restArgumentsException([{ field: '', message: 'the request body must be a JSON object' }]);
    }
    const violations = route.schema.violations(args as Record<string, unknown>);
    if (violations.length) throw restArgumentsException(violations);
  }
}
