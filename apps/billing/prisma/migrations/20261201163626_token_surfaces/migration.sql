-- Credentials are bound to a surface (docs/security.md, "Which credential works where"): a personal
-- token works on the MCP endpoint (mcp), the REST API (api), or both. Tokens minted before this
-- migration become mcp-only, like every new token by default: a REST client needs a token minted
-- with --for api (or --for mcp,api).
-- AlterTable
ALTER TABLE "access_tokens" ADD COLUMN     "surfaces" TEXT[] DEFAULT ARRAY['mcp']::TEXT[];

