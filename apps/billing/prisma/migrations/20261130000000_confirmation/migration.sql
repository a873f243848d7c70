-- CreateEnum
CREATE TYPE "ApprovalStatus" AS ENUM ('pending', 'executed', 'failed', 'denied');

-- CreateTable
CREATE TABLE "approvals" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "requested_by_id" UUID NOT NULL,
    "requested_by_token_id" TEXT NOT NULL,
    "client_name" TEXT,
    "client_version" TEXT,
    "tool" TEXT NOT NULL,
    "arguments" JSONB NOT NULL,
    "arguments_hash" TEXT NOT NULL,
    "status" "ApprovalStatus" NOT NULL DEFAULT 'pending',
    "expires_at" TIMESTAMP(3) NOT NULL,
    "decided_by_id" UUID,
    "decided_at" TIMESTAMP(3),
    "result" JSONB,
    "created_via" "Channel" NOT NULL,
    "updated_via" "Channel" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "approvals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "scope" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "arguments_hash" TEXT NOT NULL,
    "result" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("scope","tool","key")
);

-- CreateTable
CREATE TABLE "request_state_uses" (
    "id" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "request_state_uses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "panel_sessions" (
    "id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "panel_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "approvals_workspace_id_status_expires_at_idx" ON "approvals"("workspace_id", "status", "expires_at");

-- CreateIndex
CREATE INDEX "approvals_workspace_id_tool_arguments_hash_requested_by_id_idx" ON "approvals"("workspace_id", "tool", "arguments_hash", "requested_by_id");

-- CreateIndex
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

-- CreateIndex
CREATE INDEX "request_state_uses_expires_at_idx" ON "request_state_uses"("expires_at");

-- CreateIndex
CREATE INDEX "panel_sessions_user_id_idx" ON "panel_sessions"("user_id");

-- AddForeignKey
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "panel_sessions" ADD CONSTRAINT "panel_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

