/**
 * The key a tool call claimed, from the interceptor that claimed it (after the guards) to the
 * tools handler that renders the final answer and saves it (or frees the key). Keyed by the
 * invocation object, which both see; nothing is kept once the invocation is gone.
 */
const claimed = new WeakMap();
export const ClaimedCalls = {
    remember(invocation, call) {
        claimed.set(invocation, call);
    },
    /** The call this invocation claimed first (so the answer is its to save), if any; forgets it. */
    take(invocation) {
        const call = claimed.get(invocation);
        claimed.delete(invocation);
        return call;
    },
};
//# sourceMappingURL=claimed-calls.js.map