import type { IdempotentCall } from '@nest-mcp/core/extensions';

/**
 * A keyed operation that is not an MCP tool call (a REST write with an `Idempotency-Key`
 * header): `tool` names the operation (`POST /v1/payments/:id/refunds`), and the application
 * decides its scope itself.
 */
export interface IdempotentRequest {
  tool: string;
  key: string;
  argumentsHash: string;
  scope: string;
}

/** A keyed MCP tool call or another keyed operation: one store, one table, one claim for both. */
export type IdempotentOperation = IdempotentCall | IdempotentRequest;
