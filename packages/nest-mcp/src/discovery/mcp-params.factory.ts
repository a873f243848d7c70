import { RouteParamtypes } from '@nestjs/common/internal';
import type { Request } from 'express';
import type { McpInvocation } from '../invocation/mcp-invocation.js';
import { markValidated } from '../schema/validated-arguments.js';
import type { ArgumentSlices, ArgumentSource } from './route-input.js';
import { templateVariablesView } from './template-variables.view.js';

/** Param type of the synthetic second argument given to provider methods: the invocation. */
export const MCP_INVOCATION_PARAM = 100;

/**
 * Feeds route-parameter decorators of a handler invoked through MCP: `@Body()`, `@Query()` and
 * `@Param()` read the validated input (whole, or one property by name), `@Req()` and `@Headers()`
 * the HTTP request that carried the message. `@Res()` has no meaning here and gets undefined.
 */
export class McpParamsFactory {
  /**
   * @param slices which arguments go to which parameter. Named ones (`@Param(name)`,
   * `@Query(name)`) are kept out of a whole `@Body()`, so a REST body DTO without the path
   * parameter still validates when the tool's input carries it (e.g. `payment_id` of
   * `/payments/:payment_id/refunds`); a composed input gives each whole parameter its own properties.
   */
  constructor(private readonly slices: ArgumentSlices = { named: [], whole: {} }) {}

  exchangeKeyForValue(type: number, data: unknown, args: [Request, McpInvocation]): unknown {
    const [request, invocation] = args;
    const input = invocation.input as Record<string, unknown> | undefined;
    switch (type) {
      case RouteParamtypes.BODY:
        if (typeof data === 'string') return input?.[data];
        if (this.slices.onlyVariables && input) return templateVariablesView(input, this.slices.onlyVariables);
        return this.slice('body', input) ?? this.withoutNamedKeys(input);
      case RouteParamtypes.QUERY:
        return typeof data === 'string' ? input?.[data] : (this.slice('query', input) ?? input);
      case RouteParamtypes.PARAM:
        return typeof data === 'string' ? input?.[data] : (this.slice('param', input) ?? input);
      case RouteParamtypes.REQUEST:
        return request;
      case RouteParamtypes.HEADERS:
        return typeof data === 'string' ? request.headers[data.toLowerCase()] : request.headers;
      case RouteParamtypes.IP:
        return request.ip;
      case RouteParamtypes.HOST:
        return typeof data === 'string' ? (request as unknown as { hosts?: Record<string, unknown> }).hosts?.[data] : undefined;
      case MCP_INVOCATION_PARAM:
        return invocation;
      default:
        return undefined;
    }
  }

  /** A whole parameter's own properties, as an instance of its DTO; undefined when the input is not composed. */
  private slice(source: ArgumentSource, input: Record<string, unknown> | undefined): object | undefined {
    const part = this.slices.whole[source];
    if (!part || !input) return undefined;
    const own = Object.fromEntries(part.keys.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]));
    // Validated as part of the composed input: a ValidationPipe on the parameter need not run again.
    return markValidated(Object.assign(Object.create(part.dto.prototype) as object, own));
  }

  private withoutNamedKeys(input: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    if (!input || !this.slices.named.length) return input;
    return Object.fromEntries(Object.entries(input).filter(([key]) => !this.slices.named.includes(key)));
  }
}
