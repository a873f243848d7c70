-- CreateTable
CREATE TABLE "mcp_tasks" (
    "id" TEXT NOT NULL,
    "owner_key" TEXT NOT NULL,
    "workspace_id" UUID,
    "tool" TEXT NOT NULL,
    "arguments" JSONB NOT NULL,
    "caller" JSONB NOT NULL,
    "client" JSONB NOT NULL,
    "followed_as" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "status_message" TEXT,
    "input_requests" JSONB,
    "input_responses" JSONB,
    "result" JSONB,
    "error" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL,
    "last_updated_at" TIMESTAMP(3) NOT NULL,
    "started_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "mcp_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "mcp_tasks_workspace_id_status_idx" ON "mcp_tasks"("workspace_id", "status");

-- CreateIndex
CREATE INDEX "mcp_tasks_owner_key_status_idx" ON "mcp_tasks"("owner_key", "status");

-- CreateIndex
CREATE INDEX "mcp_tasks_workspace_id_created_at_idx" ON "mcp_tasks"("workspace_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "mcp_tasks_expires_at_idx" ON "mcp_tasks"("expires_at");

-- AddForeignKey
ALTER TABLE "mcp_tasks" ADD CONSTRAINT "mcp_tasks_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

