import {
  Injectable,
  InternalServerErrorException,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';
import { MCP_PROMPT_METADATA, MCP_RESOURCE_METADATA, MCP_TOOL_METADATA } from '../decorators/mcp-metadata.keys.js';
import { JsonConversionError, toJsonValue } from '../tool-results/json-value.js';

const PUBLISHED = [MCP_TOOL_METADATA, MCP_RESOURCE_METADATA, MCP_PROMPT_METADATA];

/**
 * The REST half of "what a tool may return" (`McpRestModule` registers it as a global
 * interceptor; an application that wires REST itself adds `app.useGlobalInterceptors(new
 * McpRestResultInterceptor())`): a route that is also a tool, resource or prompt writes its JSON
 * body by the rules its MCP result follows (`toJsonValue`: a `BigInt` as its decimal string, a
 * `Map` as an object, a `Set` as an array), so the one handler does not answer the agent and
 * fail REST with a 500. A body JSON cannot carry (a circular reference) is a 500 whose JSON says
 * so, and an error in the log naming the route and where the value sits. No size limit: REST
 * clients page, and read no answer into a model's context.
 *
 * The body is converted when Express writes it (`res.json`), not in this interceptor's stream:
 * whatever order the application's interceptors run in, a serializer among them (Nest's
 * `ClassSerializerInterceptor`, which drops `@Exclude()` fields of class instances) still sees
 * the handler's own objects. Other routes, and calls the MCP layer makes in-process, are left alone.
 */
@Injectable()
export class McpRestResultInterceptor implements NestInterceptor {
  private readonly logger = new Logger('McpRest');

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const handler = context.getHandler();
    if (context.getType() !== 'http' || !PUBLISHED.some((key) => Reflect.hasMetadata(key, handler))) return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const json = res.json;
    const route = `${req.method} ${req.originalUrl.split('?')[0]}`;
    const source = `${context.getClass().name}.${handler.name}`;
    // Once: the error body of a refused result goes out through the original.
    res.json = (body?: unknown) => {
      res.json = json;
      return json.call(res, this.toJson(body, route, source));
    };
    return next.handle();
  }

  private toJson(body: unknown, route: string, source: string): unknown {
    try {
      return toJsonValue(body);
    } catch (error) {
      if (!(error instanceof JsonConversionError)) throw error;
      this.logger.error(
        `${route} (${source}) returned a result that cannot be sent as JSON: ${error.message}. ` +
          'The client got a 500 result_not_serializable. Return plain data (drop the back-reference, map the value to an object or array).',
      );
      throw new InternalServerErrorException({
        statusCode: 500,
        error: 'Internal Server Error',
        code: 'result_not_serializable',
        message:
          `The result of ${route} could not be sent: the server built a value that JSON cannot represent. ` +
          'This is a fault of the server, not of this request; retrying will not help.',
      });
    }
  }
}
