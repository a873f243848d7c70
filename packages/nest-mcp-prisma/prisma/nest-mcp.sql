-- The tables of @nest-mcp/prisma, as SQL: what `prisma migrate` makes of prisma/nest-mcp.prisma on an
-- empty database, for a team that applies SQL with a tool of its own. Generated from nest-mcp.prisma
-- (prisma migrate diff --from-empty --to-schema-datamodel … --script); keep the two in step.
-- CreateTable
CREATE TABLE "mcp_audit_events" (
    "id" UUID NOT NULL,
    "occurred_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "channel" TEXT NOT NULL,
    "workspace_id" TEXT,
    "user_id" TEXT,
    "token_id" TEXT,
    "client_name" TEXT,
    "client_version" TEXT,
    "method" TEXT NOT NULL,
    "target" TEXT,
    "arguments" JSONB,
    "outcome" TEXT NOT NULL,
    "error_code" TEXT,
    "duration_ms" INTEGER NOT NULL,
    "trace_id" TEXT,
    "task_id" TEXT,

    CONSTRAINT "mcp_audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mcp_idempotency_records" (
    "scope" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "arguments_hash" TEXT NOT NULL,
    "result" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "mcp_idempotency_records_pkey" PRIMARY KEY ("scope","tool","key")
);

-- CreateTable
CREATE TABLE "mcp_request_state_uses" (
    "id" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mcp_request_state_uses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mcp_client_infos" (
    "caller_key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mcp_client_infos_pkey" PRIMARY KEY ("caller_key")
);

-- CreateTable
CREATE TABLE "mcp_sessions" (
    "id" TEXT NOT NULL,
    "caller_key" TEXT NOT NULL,
    "protocol_version" TEXT NOT NULL,
    "client_info" JSONB,
    "client_capabilities" JSONB NOT NULL,
    "log_level" TEXT,
    "standalone_stream" TEXT,
    "delivered" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "mcp_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mcp_session_subscriptions" (
    "session_id" TEXT NOT NULL,
    "uri_hash" TEXT NOT NULL,
    "uri" TEXT NOT NULL,

    CONSTRAINT "mcp_session_subscriptions_pkey" PRIMARY KEY ("session_id","uri_hash")
);

-- CreateTable
CREATE TABLE "mcp_stream_events" (
    "seq" BIGSERIAL NOT NULL,
    "stream_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "message" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mcp_stream_events_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "mcp_tasks" (
    "id" TEXT NOT NULL,
    "owner_key" TEXT NOT NULL,
    "workspace_id" TEXT,
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
CREATE INDEX "mcp_audit_events_workspace_id_occurred_at_idx" ON "mcp_audit_events"("workspace_id", "occurred_at");

-- CreateIndex
CREATE INDEX "mcp_audit_events_target_idx" ON "mcp_audit_events"("target");

-- CreateIndex
CREATE INDEX "mcp_audit_events_task_id_idx" ON "mcp_audit_events"("task_id");

-- CreateIndex
CREATE INDEX "mcp_idempotency_records_expires_at_idx" ON "mcp_idempotency_records"("expires_at");

-- CreateIndex
CREATE INDEX "mcp_request_state_uses_expires_at_idx" ON "mcp_request_state_uses"("expires_at");

-- CreateIndex
CREATE INDEX "mcp_client_infos_updated_at_idx" ON "mcp_client_infos"("updated_at");

-- CreateIndex
CREATE INDEX "mcp_sessions_expires_at_idx" ON "mcp_sessions"("expires_at");

-- CreateIndex
CREATE INDEX "mcp_sessions_caller_key_expires_at_idx" ON "mcp_sessions"("caller_key", "expires_at");

-- CreateIndex
CREATE INDEX "mcp_session_subscriptions_uri_hash_idx" ON "mcp_session_subscriptions"("uri_hash");

-- CreateIndex
CREATE INDEX "mcp_stream_events_stream_id_seq_idx" ON "mcp_stream_events"("stream_id", "seq");

-- CreateIndex
CREATE INDEX "mcp_stream_events_created_at_idx" ON "mcp_stream_events"("created_at");

-- CreateIndex
CREATE INDEX "mcp_tasks_workspace_id_status_idx" ON "mcp_tasks"("workspace_id", "status");

-- CreateIndex
CREATE INDEX "mcp_tasks_owner_key_status_idx" ON "mcp_tasks"("owner_key", "status");

-- CreateIndex
CREATE INDEX "mcp_tasks_workspace_id_created_at_idx" ON "mcp_tasks"("workspace_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "mcp_tasks_expires_at_idx" ON "mcp_tasks"("expires_at");

-- AddForeignKey
ALTER TABLE "mcp_session_subscriptions" ADD CONSTRAINT "mcp_session_subscriptions_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "mcp_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

