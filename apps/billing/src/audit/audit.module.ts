import { Global, Module } from '@nestjs/common';
import { AuditCallHook } from './audit-call.hook.js';
import { AuditService } from './audit.service.js';

/**
 * The audit trail of MCP calls (`AuditCallHook`, the MCP layer's `callHook`) and of admin
 * decisions; global because other modules record events through `AuditService`.
 */
@Global()
@Module({
  providers: [AuditService, AuditCallHook],
  exports: [AuditService, AuditCallHook],
})
export class AuditModule {}
