import { AsyncLocalStorage } from 'node:async_hooks';
const storage = new AsyncLocalStorage();
/** Request-scoped state on `AsyncLocalStorage`: safe across concurrent requests, no request-scoped providers. */
export const RequestContext = {
    run(state, fn) {
        return storage.run(state, fn);
    },
    current() {
        return storage.getStore();
    },
    /** The current state; throws where code that needs a request runs outside of one. */
    require() {
        const state = storage.getStore();
        if (!state)
            throw new Error('No request context: this code must run inside a request (or RequestContext.run)');
        return state;
    },
};
//# sourceMappingURL=request-context.js.map