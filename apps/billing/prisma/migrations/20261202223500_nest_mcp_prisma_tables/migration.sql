-- The audit trail, idempotency keys and request-state uses move to the tables of @nest-mcp/prisma
-- (prisma/schema/nest-mcp.prisma): renamed, rows kept. Its audit table holds ids and channels as
-- text (an installing app's ids and channels are its own).
ALTER TABLE "audit_events" RENAME TO "mcp_audit_events";
ALTER TABLE "mcp_audit_events" RENAME CONSTRAINT "audit_events_pkey" TO "mcp_audit_events_pkey";
ALTER INDEX "audit_events_workspace_id_occurred_at_idx" RENAME TO "mcp_audit_events_workspace_id_occurred_at_idx";
ALTER INDEX "audit_events_target_idx" RENAME TO "mcp_audit_events_target_idx";
ALTER TABLE "mcp_audit_events"
  ALTER COLUMN "channel" SET DATA TYPE TEXT USING "channel"::text,
  ALTER COLUMN "workspace_id" SET DATA TYPE TEXT,
  ALTER COLUMN "user_id" SET DATA TYPE TEXT;

ALTER TABLE "idempotency_records" RENAME TO "mcp_idempotency_records";
ALTER TABLE "mcp_idempotency_records" RENAME CONSTRAINT "idempotency_records_pkey" TO "mcp_idempotency_records_pkey";
ALTER INDEX "idempotency_records_expires_at_idx" RENAME TO "mcp_idempotency_records_expires_at_idx";

ALTER TABLE "request_state_uses" RENAME TO "mcp_request_state_uses";
ALTER TABLE "mcp_request_state_uses" RENAME CONSTRAINT "request_state_uses_pkey" TO "mcp_request_state_uses_pkey";
ALTER INDEX "request_state_uses_expires_at_idx" RENAME TO "mcp_request_state_uses_expires_at_idx";
