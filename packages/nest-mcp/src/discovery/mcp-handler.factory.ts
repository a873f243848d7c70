import {
  Injectable,
  ValidationPipe,
  type ArgumentMetadata,
  type CanActivate,
  type NestInterceptor,
  type PipeTransform,
} from '@nestjs/common';
import { GUARDS_METADATA, ROUTE_ARGS_METADATA, RouteParamtypes } from '@nestjs/common/internal';
import { ExternalContextCreator, ModulesContainer } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { isMcpRequestGuard } from '../decorators/mcp-request-guard.decorator.js';
import { MCP_CONTEXT_TYPE } from '../invocation/mcp-execution-context.js';
import { namingArgument } from '../rest/named-argument.pipe.js';
import type { McpInvocation } from '../invocation/mcp-invocation.js';
import { isValidatedAs } from '../schema/validated-arguments.js';
import { MCP_INVOCATION_PARAM, McpParamsFactory } from './mcp-params.factory.js';
import type { BoundHandler } from '../invocation/capability-entries.js';
import type { ArgumentSlices } from './route-input.js';
import { hookedContextCreator, withLeadingInterceptors } from './nest-internals.js';

/** Where provider methods (no route decorators) get their arguments: `(input, invocation)`. */
const MCP_ARGS_METADATA = 'mcp:routeArguments';

const PROVIDER_ARGS = {
  [`${RouteParamtypes.BODY}:0`]: { index: 0, data: undefined, pipes: [] },
  [`${MCP_INVOCATION_PARAM}:1`]: { index: 1, data: undefined, pipes: [] },
};

/**
 * Wraps a decorated method with Nest's `ExternalContextCreator`, as @nestjs/graphql does for
 * resolvers, so the guards, interceptors and pipes that protect it over HTTP protect it over MCP.
 * Exception filters are left out: the MCP layer maps errors itself (see `McpExceptionFilter`).
 * Request guards (`@McpRequestGuard()`) are left out too: they ran once, on the endpoint's own
 * route, for the HTTP request that carried the call. What `create(...)` takes no argument for
 * (a controller's module, the guard list, leading interceptors, a parameter's pipes) is asked of
 * the creator through `nest-internals.ts`, the one file that knows how Nest's creator works inside.
 */
@Injectable()
export class McpHandlerFactory {
  private readonly externalContextCreator: ExternalContextCreator;

  constructor(shared: ExternalContextCreator, modules: ModulesContainer) {
    this.externalContextCreator = hookedContextCreator(shared, {
      // Nest looks for a host's module among module *providers* only (its creator was made for
      // GraphQL resolvers); without its module a controller's guards and interceptors would be
      // silently dropped, so the creator also looks among controllers.
      moduleKeyOf: (classRef) => [...modules.entries()].find(([, moduleRef]) => moduleRef.controllers.has(classRef))?.[0],
      guards: McpHandlerFactory.capabilityGuardsOnly,
      paramValue: McpHandlerFactory.withoutRepeatedValidation,
    });
  }

  /**
   * `leading`: interceptors of the MCP layer that run first (outermost), after the guards and
   * before the application's global, class and method interceptors. `slices`: how the validated
   * input reaches a route handler's `@Body()`, `@Query()` and `@Param()` (see `resolveToolInput`).
   */
  create(wrapper: InstanceWrapper, methodName: string, leading: readonly NestInterceptor[] = [], slices?: ArgumentSlices): BoundHandler {
    const instance = wrapper.instance as Record<string, (...args: unknown[]) => unknown>;
    const prototype = Object.getPrototypeOf(instance);
    McpHandlerFactory.assertNoBoundRequestGuard(prototype.constructor, methodName);
    const hasRouteArgs = Reflect.hasMetadata(ROUTE_ARGS_METADATA, prototype.constructor, methodName);
    if (!hasRouteArgs && !Reflect.hasOwnMetadata(MCP_ARGS_METADATA, prototype.constructor, methodName)) {
      Reflect.defineMetadata(MCP_ARGS_METADATA, PROVIDER_ARGS, prototype.constructor, methodName);
    }
    const handler = withLeadingInterceptors(this.externalContextCreator, leading).create(
      instance,
      prototype[methodName],
      methodName,
      hasRouteArgs ? ROUTE_ARGS_METADATA : MCP_ARGS_METADATA,
      new McpParamsFactory(slices ?? { named: McpHandlerFactory.namedArguments(prototype.constructor, methodName), whole: {} }),
      undefined,
      undefined,
      { guards: true, interceptors: true, filters: false },
      MCP_CONTEXT_TYPE,
    );
    return (invocation: McpInvocation) => handler(invocation.httpRequest, invocation) as Promise<unknown>;
  }

  /**
   * The creator's guard lists (global, class and method guards), minus the request guards. Those
   * decide on the HTTP request alone and ran on the endpoint's route; running them again here
   * would charge a rate limit twice, and in a call no agent's request carries (an approved call, a
   * task's run) they would judge a request that only stands for the caller.
   */
  private static capabilityGuardsOnly(this: void, guards: CanActivate[]): CanActivate[] {
    return guards.filter((guard) => !isMcpRequestGuard(guard));
  }

  /**
   * The endpoint runs only global guards, so a request guard bound to a capability's class or
   * method (`@UseGuards()`) would run over REST and never over MCP: refused at boot.
   */
  private static assertNoBoundRequestGuard(target: Function, methodName: string): void {
    const method = (target.prototype as Record<string, Function>)[methodName];
    const bound: Array<Function | CanActivate> = [
      ...(Reflect.getMetadata(GUARDS_METADATA, target) ?? []),
      ...(Reflect.getMetadata(GUARDS_METADATA, method) ?? []),
    ];
    const requestGuard = bound.find(isMcpRequestGuard);
    if (!requestGuard) return;
    const name = typeof requestGuard === 'function' ? requestGuard.name : requestGuard.constructor.name;
    throw new Error(
      `${target.name}.${methodName}: @UseGuards(${name}) binds a request guard (@McpRequestGuard()) to an MCP capability. ` +
        'Over MCP a request guard runs once per HTTP request, on the endpoint, where only global guards run, so this one ' +
        `would never run for an MCP call. Register ${name} as a global guard (APP_GUARD), or remove @McpRequestGuard() ` +
        'from it so that it runs with each call',
    );
  }

  /**
   * A parameter's pipes, minus every `ValidationPipe` (global, controller, method or
   * parameter) for a value the layer already validated as an instance of the parameter's type:
   * the same DTO, the same class-validator rules, checked once per call. Any other pipe
   * (`ParseUUIDPipe`, a schema pipe of another library) still runs; when it refuses a named
   * argument (`@Param('id', ParseUUIDPipe)`), its 400 names that argument (Nest's own pipes do not
   * say which one), so the agent knows what to correct: the body `namedArgumentPipe()` gives REST.
   */
  private static async withoutRepeatedValidation(
    this: void,
    value: unknown,
    metadata: ArgumentMetadata,
    pipes: PipeTransform[],
    apply: (pipes: PipeTransform[]) => Promise<unknown>,
  ): Promise<unknown> {
    const needed =
      pipes.length && isValidatedAs(value, metadata.metatype) ? pipes.filter((pipe) => !(pipe instanceof ValidationPipe)) : pipes;
    try {
      return await apply(needed);
    } catch (error) {
      throw typeof metadata.data === 'string' ? namingArgument(error, metadata.data) : error;
    }
  }

  /** Names read one by one with `@Param(name)` / `@Query(name)` on a route handler. */
  static namedArguments(target: Function, methodName: string): string[] {
    const args: Record<string, { data?: unknown }> = Reflect.getMetadata(ROUTE_ARGS_METADATA, target, methodName) ?? {};
    const named = [`${RouteParamtypes.PARAM}:`, `${RouteParamtypes.QUERY}:`];
    return Object.entries(args)
      .filter(([key, value]) => named.some((prefix) => key.startsWith(prefix)) && typeof value.data === 'string')
      .map(([, value]) => value.data as string);
  }
}
