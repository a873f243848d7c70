import type { CallToolResult } from '@modelcontextprotocol/server';
import type { McpInvocation } from '../invocation/mcp-invocation.js';

/** A tool call that carries an idempotency key. */
export interface IdempotentCall {
  tool: string;
  key: string;
  /** Hash of all the call's arguments: the same key with other arguments is refused. */
  argumentsHash: string;
  invocation: McpInvocation;
}

/** `R`: the stored answer (a tool result here; an application may keep other answers in the same store). */
export type IdempotencyClaim<R = CallToolResult> =
  /** No earlier call with this key: run the tool, then `save` (or `release`) in the same transaction. */
  | { kind: 'first' }
  /** An earlier call with this key and these arguments answered this. */
  | { kind: 'replay'; result: R }
  /** An earlier call used this key with other arguments. */
  | { kind: 'mismatch' };

/**
 * Claimed, then saved or released, by `McpIdempotencyInterceptor` (after the guards, around the call).
 * Where first answers are kept, per tool and key (and whatever scope the application adds, such
 * as the workspace). `claim` runs inside the call's transaction (see `MCP_CALL_HOOK`) and must let
 * the database decide between concurrent first calls (a unique key), so that they run once across
 * replicas: the losers wait for the winner and get its answer. Given as
 * the `idempotencyStore` option of `McpModule.forRoot()`; the default keeps answers in memory.
 */
export interface McpIdempotencyStore {
  claim(call: IdempotentCall): Promise<IdempotencyClaim>;
  /**
   * Keeps the first answer, exactly as the client got it (a stored answer is never rendered again):
   * later calls with the key get it back.
   */
  save(call: IdempotentCall, result: CallToolResult): Promise<void>;
  /** The first call did not complete (it failed, threw, or needs input or a confirmation): the key stays free. */
  release(call: IdempotentCall): Promise<void>;
}

export const MCP_IDEMPOTENCY_STORE = Symbol('MCP_IDEMPOTENCY_STORE');
