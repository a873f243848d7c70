import type { McpInvocation } from '../mcp-invocation.js';
import type { IdempotentCall } from '../contracts/idempotency-store.js';

/**
 * The key a tool call claimed, from the interceptor that claimed it (after the guards) to the
 * tools handler that renders the final answer and saves it (or frees the key). Keyed by the
 * invocation object, which both see; nothing is kept once the invocation is gone.
 */
const claimed = new WeakMap<McpInvocation, IdempotentCall>();

export const ClaimedCalls = {
  remember(invocation: McpInvocation, call: IdempotentCall): void {
    claimed.set(invocation, call);
  },
  /** The call this invocation claimed first (so the answer is its to save), if any; forgets it. */
  take(invocation: McpInvocation): IdempotentCall | undefined {
    const call = claimed.get(invocation);
    claimed.delete(invocation);
    return call;
  },
};
