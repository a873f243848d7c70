-- AlterTable
ALTER TABLE "mcp_audit_events" ADD COLUMN     "task_id" TEXT;

-- CreateIndex
CREATE INDEX "mcp_audit_events_task_id_idx" ON "mcp_audit_events"("task_id");
