import { Injectable, UseInterceptors, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { layerProvider } from './layer-provider.js';

/** The provider that holds REST requests to the routes of raw-schema tools to their schema (`McpRestInputSchemas`, in `McpModule`). */
export const MCP_REST_INPUT_SCHEMAS = Symbol('McpRestInputSchemas');

/** What `McpRestInputSchemaInterceptor` asks about a REST request to a route of a tool with an `inputSchema`. */
export interface McpRestInputSchemaChecks {
  /** Throws the 400 that names each refused argument when the request's arguments break `handler`'s tool schema. */
  check(handler: Function, request: Request): void;
}

/**
 * The REST half of `@McpTool({ inputSchema })`, applied by the decorator to the tool's method: a
 * plain HTTP request to its route is held to the tool's JSON Schema (its `@Body()`, `@Query()` and
 * `@Param()` together, as the tool's arguments) before the route's pipes and handler run, and
 * refused with the 400 a DTO's refusal gets (`McpRestValidationPipe`). No `ValidationPipe` could
 * do it: the schema is no class. An interceptor, so the route's guards ran first; an MCP call
 * (type `mcp`) passes through, validated by the tools handler. It finds the layer's provider by
 * token: the decorator cannot import the layers above it.
 */
@Injectable()
export class McpRestInputSchemaInterceptor implements NestInterceptor {
  private checks?: McpRestInputSchemaChecks;

  constructor(private readonly moduleRef: ModuleRef) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    this.checks ??= layerProvider<McpRestInputSchemaChecks>(
      this.moduleRef,
      MCP_REST_INPUT_SCHEMAS,
      'A route whose @McpTool has an inputSchema needs McpModule.forRoot() (or forRootAsync()) in the application',
    );
    this.checks.check(context.getHandler(), context.switchToHttp().getRequest<Request>());
    return next.handle();
  }
}

/** What `@McpTool({ inputSchema })` adds to its method: the interceptor that validates its REST requests. */
export function validatedByInputSchemaOverRest(target: object, propertyKey: string | symbol, descriptor: PropertyDescriptor): void {
  UseInterceptors(McpRestInputSchemaInterceptor)(target, propertyKey, descriptor);
}
