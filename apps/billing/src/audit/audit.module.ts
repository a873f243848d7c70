import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RestWriteAuditInterceptor } from './rest-write-audit.interceptor.js';
import { RestWriteAuditRoutes } from './rest-write-audit.routes.js';

/**
 * The audit trail of REST writes (`RestWriteAuditInterceptor`, put on every write route by
 * `RestWriteAuditRoutes`), in the same table as MCP calls: `@nest-mcp/prisma`'s `McpAuditLog`
 * (its `McpAuditHook` audits every MCP call; see app.mcp-prisma.ts).
 */
@Module({
  imports: [DiscoveryModule],
  providers: [RestWriteAuditInterceptor, RestWriteAuditRoutes],
})
export class AuditModule {}
