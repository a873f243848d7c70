import { Inject, Injectable, RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/internal';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { MCP_OPTIONS, type ResolvedMcpOptions } from '@nest-mcp/core/extensions';
import { channelOfRoute } from '../context/request-channel.js';
import { RestWriteAuditInterceptor } from './rest-write-audit.interceptor.js';

const WRITES = new Set<RequestMethod>([
  RequestMethod.POST,
  RequestMethod.PUT,
  RequestMethod.PATCH,
  RequestMethod.DELETE,
  RequestMethod.ALL,
]);

/**
 * Puts RestWriteAuditInterceptor first on every write route of the REST API, so that every REST
 * write is audited without a decorator anyone could forget, and reads pay for no interceptor
 * chain (a global interceptor measured +10–14% server CPU on a REST read). Routes of the other
 * channels are left alone, as the request's channel would leave them: the MCP endpoint (its
 * calls are audited by the call hook) and the admin pages (their decisions by ApprovalService).
 *
 * It runs while the application's providers are created, before Nest builds the routes' contexts
 * (app.init → registerRouter) reads their interceptors. The interceptor goes in as an instance:
 * a class added after scanning would not be registered in the controller's module.
 */
@Injectable()
export class RestWriteAuditRoutes {
  readonly audited: string[] = [];

  constructor(
    discovery: DiscoveryService,
    scanner: MetadataScanner,
    interceptor: RestWriteAuditInterceptor,
    @Inject(MCP_OPTIONS) mcp: ResolvedMcpOptions,
  ) {
    for (const wrapper of discovery.getControllers()) {
      const controller = wrapper.metatype;
      const prototype = controller?.prototype as Record<string, unknown> | undefined;
      if (!controller || !prototype) continue;
      const prefixes = paths(Reflect.getMetadata(PATH_METADATA, controller));
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        if (typeof handler !== 'function' || !WRITES.has(Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod)) continue;
        const routes = prefixes.flatMap((prefix) => paths(Reflect.getMetadata(PATH_METADATA, handler)).map((path) => join(prefix, path)));
        if (!routes.some((route) => channelOfRoute(route, mcp.path) === 'api')) continue;
        const existing = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? [];
        if (existing.includes(interceptor)) continue;
        // First: its transaction wraps the route's own interceptors (an idempotency claim joins it).
        Reflect.defineMetadata(INTERCEPTORS_METADATA, [interceptor, ...existing], handler);
        this.audited.push(`${controller.name}.${name}`);
      }
    }
  }
}

/** A `@Controller()` or route path metadata: one path, several, or none (the root). */
function paths(metadata: unknown): string[] {
  const list = Array.isArray(metadata) ? metadata : [metadata];
  return list.map((path) => (typeof path === 'string' ? path : ''));
}

/** The route's path as Express matches it (what routeChannel reads): `/` + the parts, without empty ones. */
function join(prefix: string, path: string): string {
  return `/${[prefix, path]
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .join('/')}`;
}
