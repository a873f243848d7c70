var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var McpHandlerFactory_1;
import { Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA, RouteParamtypes } from '@nestjs/common/internal';
import { ExternalContextCreator, ModulesContainer } from '@nestjs/core';
import { MCP_CONTEXT_TYPE } from '../mcp.constants.js';
import { MCP_INVOCATION_PARAM, McpParamsFactory } from './mcp-params.factory.js';
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
 */
let McpHandlerFactory = McpHandlerFactory_1 = class McpHandlerFactory {
    externalContextCreator;
    constructor(shared, modules) {
        // ExternalContextCreator finds a host's module among module *providers* only (it was made for
        // GraphQL resolvers); without its module a controller's guards and interceptors would be
        // silently dropped. A view of the shared creator that also looks among controllers fixes that.
        this.externalContextCreator = Object.create(shared, {
            getContextModuleKey: {
                value: (classRef) => {
                    for (const [key, moduleRef] of modules.entries()) {
                        if (classRef && moduleRef.controllers.has(classRef))
                            return key;
                    }
                    return shared.getContextModuleKey(classRef);
                },
            },
        });
    }
    /**
     * `leading`: interceptors of the MCP layer that run first (outermost), after the guards and
     * before the application's global, class and method interceptors.
     */
    create(wrapper, methodName, leading = []) {
        const instance = wrapper.instance;
        const prototype = Object.getPrototypeOf(instance);
        const hasRouteArgs = Reflect.hasMetadata(ROUTE_ARGS_METADATA, prototype.constructor, methodName);
        if (!hasRouteArgs && !Reflect.hasOwnMetadata(MCP_ARGS_METADATA, prototype.constructor, methodName)) {
            Reflect.defineMetadata(MCP_ARGS_METADATA, PROVIDER_ARGS, prototype.constructor, methodName);
        }
        const handler = this.withLeadingInterceptors(leading).create(instance, prototype[methodName], methodName, hasRouteArgs ? ROUTE_ARGS_METADATA : MCP_ARGS_METADATA, new McpParamsFactory(McpHandlerFactory_1.namedArguments(prototype.constructor, methodName)), undefined, undefined, { guards: true, interceptors: true, filters: false }, MCP_CONTEXT_TYPE);
        return (invocation) => handler(invocation.httpRequest, invocation);
    }
    /**
     * The creator, or a view of it whose interceptor lists start with `leading`. Without leading
     * interceptors a handler the application does not intercept gets none, and Nest calls it
     * directly instead of through an RxJS chain.
     */
    withLeadingInterceptors(leading) {
        if (!leading.length)
            return this.externalContextCreator;
        const shared = this.externalContextCreator.interceptorsContextCreator;
        const interceptorsContextCreator = {
            create: (...args) => [...leading, ...shared.create(...args)],
        };
        return Object.create(this.externalContextCreator, { interceptorsContextCreator: { value: interceptorsContextCreator } });
    }
    /** Names read one by one with `@Param(name)` / `@Query(name)` on a route handler. */
    static namedArguments(target, methodName) {
        const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, target, methodName) ?? {};
        const named = [`${RouteParamtypes.PARAM}:`, `${RouteParamtypes.QUERY}:`];
        return Object.entries(args)
            .filter(([key, value]) => named.some((prefix) => key.startsWith(prefix)) && typeof value.data === 'string')
            .map(([, value]) => value.data);
    }
    /**
     * The parameter that carries a route handler's input: the whole `@Body()`, else the whole
     * `@Query()` (a GET route's filters DTO). Undefined when there is neither.
     */
    static inputParameterIndex(target, methodName) {
        const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, target, methodName);
        if (!args)
            return undefined;
        const whole = (type) => Object.entries(args).find(([key, value]) => key === `${type}:${value.index}` && !value.data)?.[1].index;
        return whole(RouteParamtypes.BODY) ?? whole(RouteParamtypes.QUERY);
    }
};
McpHandlerFactory = McpHandlerFactory_1 = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [ExternalContextCreator, ModulesContainer])
], McpHandlerFactory);
export { McpHandlerFactory };
//# sourceMappingURL=mcp-handler.factory.js.map