import { HttpException, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { MCP_ACCESS_POLICY, type McpAccessPolicy, type McpCapability } from '../contracts/access-policy.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { MCP_SCOPES_METADATA } from '../decorators/mcp-metadata.keys.js';
import { McpExecutionContext } from '../invocation/mcp-execution-context.js';
import { McpController } from '../server/mcp.controller.js';
import { restRequestContext } from './rest-request-context.js';
import { exceptionHeaders } from '../access/scope-challenge.js';

/**
 * The REST half of a capability's `scopes` (`McpRestModule` registers it as a global guard): a REST
 * request to a route whose handler (or controller) declares scopes, with `@McpTool`/`@McpResource`/
 * `@McpPrompt` `scopes` or `@RequiredScopes()`, runs only when the application's access policy
 * (the `accessPolicy` option of `McpModule`) allows it, exactly as the MCP call does; otherwise the
 * policy's refusal is thrown, with the headers it carries (the step-up challenge's
 * `WWW-Authenticate`) set on the answer.
 *
 * It does nothing for the MCP endpoint's own route, for calls the MCP layer makes in-process (the
 * layer asked the same policy before the call), for routes without scopes, or outside HTTP.
 * Authentication is the application's: register its guard first (see docs/installing.md).
 */
@Injectable()
export class McpRestScopeGuard implements CanActivate {
  private resolved?: { policy: McpAccessPolicy; capabilities: Map<Function, Map<Function, McpCapability>> };

  constructor(
    private readonly reflector: Reflector,
    private readonly moduleRef: ModuleRef,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http' || McpExecutionContext.isMcp(context) || context.getClass() === McpController) return true;
    const { policy, capabilities } = this.resolve();
    const handler = context.getHandler();
    const published = capabilities.get(context.getClass())?.get(handler);
    const scopes =
      published?.scopes ?? this.reflector.getAllAndOverride<string[] | undefined>(MCP_SCOPES_METADATA, [handler, context.getClass()]);
    if (!scopes?.length) return true;
    // A route published over MCP is asked about as that capability; a route with @RequiredScopes() only, by its Class.method.
    const capability: McpCapability = published ?? { kind: 'tool', name: `${context.getClass().name}.${handler.name}`, scopes };
    const req = context.switchToHttp().getRequest<Request>();
    const request = restRequestContext(req, capability.kind);
    if (policy.canUse(capability, request)) return true;
    const refusal = await policy.refuse(capability, request);
    if (refusal instanceof HttpException) {
      const res = context.switchToHttp().getResponse<Response>();
      for (const [name, value] of Object.entries(exceptionHeaders(refusal))) if (!res.headersSent) res.setHeader(name, value);
    }
    throw refusal;
  }

  /** The layer's policy and what each decorated route publishes, read once McpModule has booted. */
  private resolve(): NonNullable<McpRestScopeGuard['resolved']> {
    if (this.resolved) return this.resolved;
    let policy: McpAccessPolicy;
    let registry: McpRegistry;
    try {
      policy = this.moduleRef.get<McpAccessPolicy>(MCP_ACCESS_POLICY, { strict: false });
      registry = this.moduleRef.get(McpRegistry, { strict: false });
    } catch {
      throw new Error('McpRestScopeGuard needs McpModule.forRoot() (or forRootAsync()) in the application');
    }
    // By class, then method: a method inherited by two controllers takes each one's class-level scopes.
    const capabilities = new Map<Function, Map<Function, McpCapability>>();
    const add = (
      kind: McpCapability['kind'],
      entries: Array<{ name: string; scopes: string[]; origin: { class: Function; method: Function } }>,
    ) => {
      for (const { name, scopes, origin } of entries) {
        const methods = capabilities.get(origin.class) ?? new Map<Function, McpCapability>();
        capabilities.set(origin.class, methods);
        if (!methods.has(origin.method)) methods.set(origin.method, { kind, name, scopes });
      }
    };
    add('tool', registry.tools);
    add('resource', [...registry.resources, ...registry.templates]);
    add('prompt', registry.prompts);
    return (this.resolved = { policy, capabilities });
  }
}
