-- DropForeignKey
ALTER TABLE "mcp_tasks" DROP CONSTRAINT "mcp_tasks_workspace_id_fkey";

-- AlterTable
ALTER TABLE "mcp_tasks" ALTER COLUMN "workspace_id" SET DATA TYPE TEXT;

