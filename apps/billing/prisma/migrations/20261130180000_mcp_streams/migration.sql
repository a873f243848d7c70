-- Stream mode's shared state on PostgreSQL (src/streams, used when REDIS_URL is not set):
-- handshake-era sessions and the SSE events kept for Last-Event-ID replay. Both are bounded by
-- age (expires_at / created_at) and swept by src/streams/postgres/stream-rows.cleanup.ts.

-- CreateTable
CREATE TABLE "mcp_sessions" (
    "id" TEXT NOT NULL,
    "caller_key" TEXT NOT NULL,
    "protocol_version" TEXT NOT NULL,
    "client_info" JSONB,
    "client_capabilities" JSONB NOT NULL,
    "log_level" TEXT,
    "subscriptions" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "mcp_sessions_pkey" PRIMARY KEY ("id")
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

-- CreateIndex
CREATE INDEX "mcp_sessions_expires_at_idx" ON "mcp_sessions"("expires_at");

-- CreateIndex
CREATE INDEX "mcp_stream_events_stream_id_seq_idx" ON "mcp_stream_events"("stream_id", "seq");

-- CreateIndex
CREATE INDEX "mcp_stream_events_created_at_idx" ON "mcp_stream_events"("created_at");

-- Who is subscribed to a URI (`subscriptions @> ARRAY[uri]`), without a scan of every session.
CREATE INDEX "mcp_sessions_subscriptions_idx" ON "mcp_sessions" USING GIN ("subscriptions");
