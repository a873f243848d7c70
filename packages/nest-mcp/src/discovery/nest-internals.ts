/**
 * The one file of the layer that relies on how Nest's `ExternalContextCreator` works inside. The
 * handler factory calls `create(...)` with its public arguments only, as @nestjs/graphql does,
 * and says what it wants through `ContextCreatorHooks`; this file makes the creator do it.
 *
 * None of the four hooks has a public way in: `create()` takes an instance, a callback, the
 * metadata key, a params factory, a context id, an inquirer id, on/off switches for guards,
 * interceptors and filters, and a context type. Nothing in it names a module, filters a guard
 * list, puts an interceptor in front of the application's global ones or wraps a parameter's
 * pipes. The context creators it uses are built from the `NestContainer`, which no provider
 * hands out, and their classes are exported from `@nestjs/core/internal` only; so the hooks
 * are a view of the shared creator (`Object.create`) whose members below are replaced.
 *
 * What it relies on (@nestjs/core 12, helpers/external-context-creator.js):
 * - `getContextModuleKey(classRef)` (public in the typings, but only as a method): `create()`
 *   calls it on `this` to find the host's module when no module *provider* holds the host
 *   (`getHostModuleKey`, private, looks among providers only, by inquirer id too). A controller
 *   is no provider: without its module the guards, interceptors and pipes it binds by class
 *   (`@UseGuards(ApiKeyGuard)`, resolved among the module's injectables) are silently dropped.
 * - `getParamValue(value, metadata, pipes)` (same): `createPipesFn` runs each parameter's pipes
 *   (global, class, method and the parameter's own) through it on `this`. Nothing else sees one
 *   parameter's value with its pipes: the layer leaves out a `ValidationPipe` for a value it
 *   validated already, and names the argument a pipe refused.
 * - `guardsContextCreator` (private field), whose `create(instance, callback, moduleKey,
 *   contextId, inquirerId)` gives the global, class and method guards `create()` runs: the
 *   layer leaves out the request guards (`@McpRequestGuard()`), which ran on the endpoint.
 *   `options.guards` can only turn all of them off.
 * - `interceptorsContextCreator` (private field), the same for interceptors: the layer puts
 *   its own (idempotency, confirmation, the task boundary) first, after the guards and before
 *   the application's global interceptors. Wrapping the handler `create()` returns would run
 *   them before the guards; `@UseInterceptors()` metadata comes after the global ones.
 * `assertHookable` fails the boot if one of them is gone. That `create()` still goes through
 * them only tests can tell; these fail when it does not (paths from the repository root):
 * - getContextModuleKey: packages/nest-mcp/test/e2e/mcp-tools.e2e-spec.ts, "calls a controller
 *   route handler in-process through its guard, interceptor and param decorators" and "refuses
 *   through the same guard as HTTP"; mcp-tool-result-values.e2e-spec.ts, "keeps the app
 *   serializer's exclusions while writing a BigInt id".
 * - getParamValue: packages/nest-mcp/test/e2e/mcp-validation-once.e2e-spec.ts, "skips a
 *   ValidationPipe for the @Body() the layer validated, and still runs the other pipes" and
 *   "skips it for a provider tool’s input too"; apps/billing/test/e2e/route-pipe-errors.e2e-spec.ts,
 *   "over MCP, a plain ParseUUIDPipe is named too (the layer names the argument of any pipe)".
 * - guardsContextCreator: packages/nest-mcp/test/e2e/mcp-guards-once.e2e-spec.ts, "tools/call:
 *   the request guard once, on the endpoint; the capability guards once, on the call (the
 *   endpoint has none to decide)", "tools/call of a provider tool, resources/read, prompts/get:
 *   the same" and "an approved call (no agent request behind it): the capability guards only".
 * - interceptorsContextCreator: packages/nest-mcp/test/e2e/mcp-idempotency.e2e-spec.ts, "replays
 *   a repeated key byte for byte, durationMs included: the tool ran once, and the hook is told it
 *   was a replay"; mcp-confirmation.e2e-spec.ts, "asks a 2026 client that declared elicitation in
 *   the chat, and runs on an accepted yes only"; mcp-tasks.e2e-spec.ts, "gets a flat
 *   CreateTaskResult, durable at once: tasks/get finds it right after, then follows progress to
 *   the inlined result"; mcp-policy-and-hook.e2e-spec.ts, "tells the hook how each call ended
 *   (call.outcome), typed: no hook reads the result back".
 */
import type { ArgumentMetadata, CanActivate, NestInterceptor, PipeTransform } from '@nestjs/common';
import type { ExternalContextCreator } from '@nestjs/core';
import type { GuardsContextCreator } from '@nestjs/core/guards/guards-context-creator.js';
import type { InterceptorsContextCreator } from '@nestjs/core/interceptors/interceptors-context-creator.js';

/** What the handler factory changes in how Nest wraps a method. */
export interface ContextCreatorHooks {
  /** The key of the module that declares `classRef`, when it is no module's provider (a controller). */
  moduleKeyOf(classRef: Function): string | undefined;
  /** The guards to run, out of the global, class and method guards Nest found for a method. */
  guards(guards: CanActivate[]): CanActivate[];
  /** One parameter's value through its pipes; `apply` is Nest's own step, with the pipes to run. */
  paramValue(
    value: unknown,
    metadata: ArgumentMetadata,
    pipes: PipeTransform[],
    apply: (pipes: PipeTransform[]) => Promise<unknown>,
  ): Promise<unknown>;
}

type GetParamValue = (value: unknown, metadata: ArgumentMetadata, pipes: PipeTransform[]) => Promise<unknown>;

/** The members of `ExternalContextCreator` this file replaces (see the header). */
interface Internals {
  getContextModuleKey(classRef: Function | undefined): string;
  getParamValue: GetParamValue;
  guardsContextCreator: Pick<GuardsContextCreator, 'create'>;
  interceptorsContextCreator: Pick<InterceptorsContextCreator, 'create'>;
}

/** The shared creator, as a view whose module lookup, guard lists and parameter step follow `hooks`. */
export function hookedContextCreator(shared: ExternalContextCreator, hooks: ContextCreatorHooks): ExternalContextCreator {
  const nest = assertHookable(shared);
  const getParamValue = nest.getParamValue;
  const guards = nest.guardsContextCreator;
  return Object.create(shared, {
    getContextModuleKey: {
      value: (classRef: Function | undefined) => (classRef && hooks.moduleKeyOf(classRef)) || nest.getContextModuleKey(classRef),
    },
    getParamValue: {
      value: function (this: ExternalContextCreator, value: unknown, metadata: ArgumentMetadata, pipes: PipeTransform[]) {
        return hooks.paramValue(value, metadata, pipes, (kept) => getParamValue.call(this, value, metadata, kept));
      },
    },
    guardsContextCreator: {
      value: { create: (...args: Parameters<GuardsContextCreator['create']>) => hooks.guards(guards.create(...args)) },
    },
  }) as ExternalContextCreator;
}

/**
 * The creator, or a view of it whose interceptor lists start with `leading`. Without leading
 * interceptors a handler the application does not intercept gets none, and Nest calls it
 * directly instead of through an RxJS chain.
 */
export function withLeadingInterceptors(creator: ExternalContextCreator, leading: readonly NestInterceptor[]): ExternalContextCreator {
  if (!leading.length) return creator;
  const shared = assertHookable(creator).interceptorsContextCreator;
  const interceptorsContextCreator = {
    create: (...args: Parameters<InterceptorsContextCreator['create']>) => [...leading, ...shared.create(...args)],
  };
  return Object.create(creator, { interceptorsContextCreator: { value: interceptorsContextCreator } }) as ExternalContextCreator;
}

/** The creator's internals, or a boot error naming what this Nest version no longer has. */
function assertHookable(creator: ExternalContextCreator): Internals {
  const nest = creator as unknown as Partial<Internals>;
  const missing = [
    typeof nest.getContextModuleKey !== 'function' && 'getContextModuleKey()',
    typeof nest.getParamValue !== 'function' && 'getParamValue()',
    typeof nest.guardsContextCreator?.create !== 'function' && 'guardsContextCreator.create()',
    typeof nest.interceptorsContextCreator?.create !== 'function' && 'interceptorsContextCreator.create()',
  ].filter(Boolean);
  if (missing.length) {
    throw new Error(
      `@nest-mcp/core cannot run guards, interceptors and pipes over MCP with this version of @nestjs/core: its ` +
        `ExternalContextCreator has no ${missing.join(', ')} (see src/discovery/nest-internals.ts)`,
    );
  }
  return nest as Internals;
}
