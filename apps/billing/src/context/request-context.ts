import { AsyncLocalStorage } from 'node:async_hooks';
import { BadRequestException, HttpStatus } from '@nestjs/common';
import type { Request } from 'express';
import type { Channel } from '../generated/prisma/client.js';
import type { Principal } from '../identity/principal.js';

/** What the code serving one request knows about it, without passing it down by hand. */
export interface RequestState {
  /**
   * Where the request came from: stamped on every row it writes (`created_via`, `updated_via`).
   * Unknown in a context opened only to tie log lines to a request (see `RequestLogContextMiddleware`).
   */
  channel?: Channel;
  principal?: Principal;
  workspace?: { id: string; slug: string };
  /**
   * The route handler or MCP method serving the request (`Class.method`) when it is not
   * `@WorkspaceScoped()`: set by `WorkspaceGuard`, so code reading the workspace there is told
   * which method to scope.
   */
  unscopedHandler?: string;
  /** The HTTP request being served, when there is one: what log lines written while serving it are tied to. */
  readonly request?: Request;
}

const storage = new AsyncLocalStorage<RequestState>();

/**
 * Request-scoped state on `AsyncLocalStorage`: safe across concurrent requests, no request-scoped
 * providers. The access log finds its request here too rather than in a store of its own: on
 * Node 20 every `AsyncLocalStorage` in use runs a hook on every promise, and removing that store
 * measured an MCP write's CPU at 0.944× (bench/README.md).
 */
export const RequestContext = {
  run<T>(state: RequestState, fn: () => T): T {
    return storage.run(state, fn);
  },
  current(): RequestState | undefined {
    return storage.getStore();
  },
  /**
   * The current state; throws where code that needs a request runs outside of one. Its
   * `workspace` is the resolved one: reading it where none was resolved (a handler outside
   * `@WorkspaceScoped()`) throws {@link WorkspaceNotResolvedException} naming the fix, a 4xx
   * over REST and a tool error over MCP, never an internal error. `current()` reads it as is.
   */
  require(): RequestState {
    const state = storage.getStore();
    if (!state) throw new Error('No request context: this code must run inside a request (or RequestContext.run)');
    return strictViews.get(state) ?? strictViews.set(state, strictView(state)).get(state)!;
  },
};

/**
 * Code read the workspace of a request served by a method outside `@WorkspaceScoped()`: only
 * those resolve it (`WorkspaceGuard`). A mistake of the application, answered as a client error
 * that says what to change, so that it is found at the first call rather than masked as a 500 or
 * an internal JSON-RPC error.
 */
export class WorkspaceNotResolvedException extends BadRequestException {
  constructor(handler: string | undefined) {
    const where = handler ? `${handler} is not @WorkspaceScoped()` : 'this code runs outside a @WorkspaceScoped() route or tool';
    super({
      statusCode: HttpStatus.BAD_REQUEST,
      code: 'workspace_not_resolved',
      message:
        `This operation reads the workspace, but ${where}, so no workspace was resolved for this call. ` +
        `Fix (in the server): add @WorkspaceScoped() to ${handler ?? 'the method'} or its class (and extend ` +
        'WorkspaceScopedDto in its input so a caller in several workspaces can name one)',
    });
  }
}

const strictViews = new WeakMap<RequestState, RequestState>();

/** `state` whose `workspace` must have been resolved when read; every other property reads and writes through. */
function strictView(state: RequestState): RequestState {
  return new Proxy(state, {
    get(target, property) {
      if (property !== 'workspace') return Reflect.get(target, property) as unknown;
      const workspace = target.workspace;
      if (!workspace) throw new WorkspaceNotResolvedException(target.unscopedHandler);
      return workspace;
    },
  });
}
