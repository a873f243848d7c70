import type { CallToolResult } from '@modelcontextprotocol/server';
import type { IdempotencyClaim } from '@nest-mcp/core/extensions';

/** An `mcp_idempotency_records` row as the claim reads it back. */
export interface StoredRecord {
  argumentsHash: string;
  /** The first answer exactly as it was serialized, or null while the first call has not saved it. */
  resultJson: string | null;
  expired: boolean;
}

/** What the claim does next when its INSERT met an existing row. */
export type NextStep<R = CallToolResult> =
  | IdempotencyClaim<R>
  /** The row expired: take it over (the key starts afresh). */
  | { kind: 'reuse_expired' }
  /** The row is gone (deleted by cleanup) or has no answer yet: look again. */
  | { kind: 'retry' };

/**
 * Decides from the row another call left. Expiry is checked first: an expired key is free
 * whatever arguments it had. A different arguments hash is refused before the answer is looked
 * at, so a mismatched call never sees what the first call answered.
 */
export function nextStep<R = CallToolResult>(row: StoredRecord | undefined, argumentsHash: string): NextStep<R> {
  if (!row) return { kind: 'retry' };
  if (row.expired) return { kind: 'reuse_expired' };
  if (row.argumentsHash !== argumentsHash) return { kind: 'mismatch' };
  // Null only when the first call claimed outside a transaction and is still running (see the store).
  if (row.resultJson === null) return { kind: 'retry' };
  return { kind: 'replay', result: JSON.parse(row.resultJson) as R };
}
