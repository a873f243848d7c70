import {
  HttpCode,
  HttpStatus,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/internal';
import { ModuleRef } from '@nestjs/core';
import type { Request, Response } from 'express';
import { of, type Observable } from 'rxjs';
import { layerProvider } from './layer-provider.js';

/** The provider that answers REST requests to background routes (`McpRestBackground`, in `McpModule`). */
export const MCP_REST_BACKGROUND = Symbol('McpRestBackground');

/** What `McpRestBackgroundInterceptor` hands a REST request to a background route to. */
export interface McpRestBackgroundAnswers {
  /** Whether `handler` is the route of a `task: 'background'` tool of this application. */
  serves(handler: Function): boolean;
  /** Queues the request's work and resolves to the job (the 202's body), its headers set on `response`. */
  answer(handler: Function, request: Request, response: Response): Promise<unknown>;
}

/**
 * The REST half of `task: 'background'`, applied by `@McpTool` to every background tool: a plain
 * HTTP request to its route is queued as the tool's task and answered `202 Accepted` with the job,
 * without calling the handler, which runs on a worker as the task's run. An interceptor, so the
 * route's guards (authentication, scopes, workspace, rate limit) ran before it; an MCP call
 * (`McpExecutionContext`, type `mcp`) passes through: `McpTaskInterceptor` queued it already, or
 * it is the task's run. It lives here, beside the decorator, and finds the layer's provider in the
 * application by token: the decorator cannot import the layers above it.
 */
@Injectable()
export class McpRestBackgroundInterceptor implements NestInterceptor {
  private answers?: McpRestBackgroundAnswers;

  constructor(private readonly moduleRef: ModuleRef) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const answers = (this.answers ??= layerProvider<McpRestBackgroundAnswers>(
      this.moduleRef,
      MCP_REST_BACKGROUND,
      "A task: 'background' route needs McpModule.forRoot() (or forRootAsync()) in the application",
    ));
    const handler = context.getHandler();
    // Not a route of this application's tools (a method the decorator marked, mounted elsewhere): as it is.
    if (!answers.serves(handler)) return next.handle();
    const http = context.switchToHttp();
    return of(await answers.answer(handler, http.getRequest<Request>(), http.getResponse<Response>()));
  }
}

/**
 * What `@McpTool({ task: 'background' })` adds to its method: `202 Accepted` as the route's status
 * (a route that declares another one fails the boot, see `assertAnswersAccepted`) and the interceptor.
 */
export function answeredInBackgroundOverRest(target: object, propertyKey: string | symbol, descriptor: PropertyDescriptor): void {
  if (!Reflect.hasMetadata(HTTP_CODE_METADATA, descriptor.value as object)) HttpCode(HttpStatus.ACCEPTED)(target, propertyKey, descriptor);
  UseInterceptors(McpRestBackgroundInterceptor)(target, propertyKey, descriptor);
}
