-- CreateTable
CREATE TABLE "mcp_client_infos" (
    "caller_key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mcp_client_infos_pkey" PRIMARY KEY ("caller_key")
);

-- CreateIndex
CREATE INDEX "mcp_client_infos_updated_at_idx" ON "mcp_client_infos"("updated_at");

