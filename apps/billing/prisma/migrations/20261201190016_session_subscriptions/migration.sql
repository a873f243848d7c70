-- Stream mode, bounded session state (issue 24): a session row no longer carries its
-- subscriptions (read on every request of the session, it must stay small); they get a table of
-- their own, keyed by the URI's SHA-256 (a URI may be longer than a B-tree entry can hold), gone
-- with their session. The per-caller count of live sessions gets an index. The standalone
-- stream's connection and last delivered message are stored with the session.

-- CreateTable
CREATE TABLE "mcp_session_subscriptions" (
    "session_id" TEXT NOT NULL,
    "uri_hash" TEXT NOT NULL,
    "uri" TEXT NOT NULL,

    CONSTRAINT "mcp_session_subscriptions_pkey" PRIMARY KEY ("session_id","uri_hash")
);

-- The subscriptions of live sessions move to the new table.
INSERT INTO "mcp_session_subscriptions" ("session_id", "uri_hash", "uri")
SELECT DISTINCT s."id", encode(sha256(convert_to(u.uri, 'UTF8')), 'hex'), u.uri
FROM "mcp_sessions" s CROSS JOIN LATERAL unnest(s."subscriptions") AS u(uri)
WHERE s."expires_at" > CURRENT_TIMESTAMP AT TIME ZONE 'UTC';

-- DropIndex
DROP INDEX "mcp_sessions_subscriptions_idx";

-- AlterTable
ALTER TABLE "mcp_sessions" DROP COLUMN "subscriptions",
ADD COLUMN     "delivered" TEXT,
ADD COLUMN     "standalone_stream" TEXT;

-- CreateIndex
CREATE INDEX "mcp_session_subscriptions_uri_hash_idx" ON "mcp_session_subscriptions"("uri_hash");

-- CreateIndex
CREATE INDEX "mcp_sessions_caller_key_expires_at_idx" ON "mcp_sessions"("caller_key", "expires_at");

-- AddForeignKey
ALTER TABLE "mcp_session_subscriptions" ADD CONSTRAINT "mcp_session_subscriptions_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "mcp_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
