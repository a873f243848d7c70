-- The table of @nest-mcp/admin, as SQL: what `prisma migrate` makes of prisma/nest-mcp-admin.prisma
-- on an empty database, for a team that applies SQL with a tool of its own. Generated from
-- nest-mcp-admin.prisma (prisma migrate diff --from-empty --to-schema-datamodel … --script); keep the two in step.
-- CreateTable
CREATE TABLE "mcp_approvals" (
    "id" UUID NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "requested_by_id" TEXT NOT NULL,
    "requested_by_token_id" TEXT NOT NULL,
    "client_name" TEXT,
    "client_version" TEXT,
    "tool" TEXT NOT NULL,
    "arguments" JSONB NOT NULL,
    "arguments_hash" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "expires_at" TIMESTAMP(3) NOT NULL,
    "decided_by_id" TEXT,
    "decided_at" TIMESTAMP(3),
    "result" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "mcp_approvals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "mcp_approvals_workspace_id_status_expires_at_idx" ON "mcp_approvals"("workspace_id", "status", "expires_at");

-- CreateIndex
CREATE INDEX "mcp_approvals_workspace_id_tool_arguments_hash_requested_by_idx" ON "mcp_approvals"("workspace_id", "tool", "arguments_hash", "requested_by_id");
