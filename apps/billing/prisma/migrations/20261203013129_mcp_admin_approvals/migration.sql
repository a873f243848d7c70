-- Approvals move to the table of @nest-mcp/admin (prisma/schema/nest-mcp-admin.prisma): renamed,
-- rows kept. The package knows no users or workspaces: their ids are text without foreign keys,
-- the status is text (pending | executed | failed | denied), and the channel stamps are gone.
ALTER TABLE "approvals" DROP CONSTRAINT "approvals_workspace_id_fkey";

ALTER TABLE "approvals" RENAME TO "mcp_approvals";
ALTER TABLE "mcp_approvals" RENAME CONSTRAINT "approvals_pkey" TO "mcp_approvals_pkey";
ALTER INDEX "approvals_workspace_id_status_expires_at_idx" RENAME TO "mcp_approvals_workspace_id_status_expires_at_idx";
ALTER INDEX "approvals_workspace_id_tool_arguments_hash_requested_by_id_idx" RENAME TO "mcp_approvals_workspace_id_tool_arguments_hash_requested_by_idx";

ALTER TABLE "mcp_approvals"
  ALTER COLUMN "workspace_id" SET DATA TYPE TEXT,
  ALTER COLUMN "requested_by_id" SET DATA TYPE TEXT,
  ALTER COLUMN "decided_by_id" SET DATA TYPE TEXT,
  ALTER COLUMN "status" DROP DEFAULT,
  ALTER COLUMN "status" SET DATA TYPE TEXT USING "status"::text,
  ALTER COLUMN "status" SET DEFAULT 'pending',
  DROP COLUMN "created_via",
  DROP COLUMN "updated_via";

DROP TYPE "ApprovalStatus";
