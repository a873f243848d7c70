import { AsyncLocalStorage } from 'node:async_hooks';
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
  /** The current state; throws where code that needs a request runs outside of one. */
  require(): RequestState {
    const state = storage.getStore();
    if (!state) throw new Error('No request context: this code must run inside a request (or RequestContext.run)');
    return state;
  },
};
