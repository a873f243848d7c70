import { Injectable } from '@nestjs/common';
import type { Implementation } from '@modelcontextprotocol/server';
import type { McpClientInfoStore } from '@nest-mcp/core';
import { PrismaService } from '../database/prisma.service.js';

/**
 * The MCP layer's `clientInfoStore`: in stateless mode (the default), the client each caller
 * named in its last handshake-era `initialize`, read by every replica, so that the caller's later
 * requests (which carry no session) are audited and shown on approval pages under that name. One
 * row per caller in `mcp_client_infos`, replaced by each `initialize` (an upsert); the layer keeps
 * what it read for a few seconds per replica, so this is not read on every request. Always on the
 * pool's own connections (`outsideTransaction`): it belongs to no call. Rows not updated for 30
 * days are deleted by the idempotency module's `ExpiredRowsCleanup`.
 */
@Injectable()
export class PrismaClientInfoStore implements McpClientInfoStore {
  constructor(private readonly prisma: PrismaService) {}

  remember(callerKey: string, info: Implementation): Promise<void> {
    return this.prisma.outsideTransaction(async () => {
      // The database's clock, as the cleanup reads it.
      await this.prisma.client.$executeRaw`
        INSERT INTO mcp_client_infos (caller_key, name, version, updated_at)
        VALUES (${callerKey}, ${info.name}, ${info.version ?? null}, now() AT TIME ZONE 'UTC')
        ON CONFLICT (caller_key) DO UPDATE SET name = EXCLUDED.name, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at`;
    });
  }

  recall(callerKey: string): Promise<Implementation | undefined> {
    return this.prisma.outsideTransaction(async () => {
      const row = await this.prisma.client.mcpClientInfo.findUnique({ where: { callerKey }, select: { name: true, version: true } });
      if (!row) return undefined;
      return { name: row.name, ...(row.version !== null ? { version: row.version } : {}) } as Implementation;
    });
  }
}
