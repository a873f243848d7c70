import { AsyncLocalStorage } from 'node:async_hooks';
import type { Channel, Prisma } from '../generated/prisma/client.js';
import type { Principal } from '../identity/principal.js';

/** What the code serving one request knows about it, without passing it down by hand. */
export interface RequestState {
  /** Where the request came from: stamped on every row it writes (`created_via`, `updated_via`). */
  channel: Channel;
  principal?: Principal;
  workspace?: { id: string; slug: string };
  /** The open transaction of the request, when one wraps it (MCP calls: the write and its audit). */
  // Typed from the generated client, not the database module: the context sits below the database layer.
  transaction?: Prisma.TransactionClient;
}

const storage = new AsyncLocalStorage<RequestState>();

/** Request-scoped state on `AsyncLocalStorage`: safe across concurrent requests, no request-scoped providers. */
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
