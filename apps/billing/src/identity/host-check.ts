import type { INestApplication } from '@nestjs/common';
import { createHostCheck, MCP_OPTIONS, type ResolvedMcpOptions } from '@nest-mcp/core/extensions';

/** Orchestrators probe replicas by IP, whatever name the server is reached by. */
const UNCHECKED_PATHS = ['/health'];

/**
 * Checks `Host` on every route (REST, `/.well-known`, `/admin`, `/docs`, `/mcp`) the way the MCP
 * endpoint does: on a loopback connection, a loopback name or an `allowedHosts` entry; with
 * PUBLIC_URL (`publicUrl`), whatever the connection, PUBLIC_URL's host too, and nothing else. Mount it first.
 */
export function useHostCheck(app: INestApplication, publicUrl: string | undefined): void {
  app.use(
    createHostCheck(app.get<ResolvedMcpOptions>(MCP_OPTIONS), {
      publicHostname: publicUrl ? new URL(publicUrl).hostname : undefined,
      exemptPaths: UNCHECKED_PATHS,
    }),
  );
}
