import { Global, Module } from '@nestjs/common';
import { MCP_CALL_HOOK } from '../mcp/index.js';
import { AuditCallHook } from './audit-call.hook.js';
import { AuditService } from './audit.service.js';

/** The audit trail of MCP calls; global so the MCP layer finds its call hook. */
@Global()
@Module({
  providers: [AuditService, AuditCallHook, { provide: MCP_CALL_HOOK, useExisting: AuditCallHook }],
  exports: [AuditService, MCP_CALL_HOOK],
})
export class AuditModule {}
