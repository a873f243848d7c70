import type { IdempotencyClaim } from '../contracts/idempotency-store.js';

/**
 * The part of an idempotency store a keyed operation uses, from claim to answer: `C` is the
 * keyed operation (a tool call, or an application's own keyed request), `R` what is kept for its
 * key. `McpIdempotencyStore` is one, for tool calls and their results.
 */
export interface IdempotencyKeys<C, R> {
  claim(call: C): Promise<IdempotencyClaim<R>>;
  save(call: C, result: R): Promise<void>;
  release(call: C): Promise<void>;
}

/**
 * What a channel does at each step of a keyed operation (`A`: its answer; `R`: what its store keeps).
 * How an answer looks (a tool result, a response with its headers and status) is the channel's;
 * the order of the steps is `answerWithKey`'s.
 */
export interface KeyedOperation<A, R> {
  /** An earlier operation with this key and these arguments answered `result`: answer it again, without running. */
  replay(result: R): A | Promise<A>;
  /** The key was used with other arguments: the channel's refusal, answered or thrown. Nothing runs. */
  mismatch(): A | Promise<A>;
  /** Runs the operation (the first with this key) to its answer. */
  run(): Promise<A>;
  /** What of the answer to keep for the key, exactly as the client gets it; `undefined` frees the key (a failure, a question…). */
  kept(answer: A): R | undefined;
  /**
   * When `run` throws: free the key before the error goes on, and hear a failure to free it
   * (which must not replace the operation's own error). Needed where the claim may not be in a
   * transaction; without it, the key is left to the transaction around the claim, whose rollback
   * frees it.
   */
  releaseOnThrow?: { failed(error: Error): void };
}

/**
 * A keyed operation, once for every channel: claim its key; replay the answer kept for it, or
 * refuse the key reused with other arguments; else run, then keep the answer for the key or free
 * it. The store decides between concurrent first calls (see `McpIdempotencyStore.claim`), so only
 * one runs.
 */
export async function answerWithKey<C, R, A>(keys: IdempotencyKeys<C, R>, call: C, operation: KeyedOperation<A, R>): Promise<A> {
  const claim = await keys.claim(call);
  if (claim.kind === 'replay') return operation.replay(claim.result);
  if (claim.kind === 'mismatch') return operation.mismatch();
  let answer: A;
  try {
    answer = await operation.run();
  } catch (exception) {
    const release = operation.releaseOnThrow;
    // What the client must see is the operation's own error, not a failure to free the key (in a
    // transaction that error aborted, the rollback frees it anyway).
    if (release) await keys.release(call).catch((error: Error) => release.failed(error));
    throw exception;
  }
  const kept = operation.kept(answer);
  if (kept !== undefined) await keys.save(call, kept);
  else await keys.release(call);
  return answer;
}
