import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AuditCallHook } from './audit-call.hook.js';
import { AuditService } from './audit.service.js';
import { RestWriteAuditInterceptor } from './rest-write-audit.interceptor.js';
import { RestWriteAuditRoutes } from './rest-write-audit.routes.js';

/**
 * The audit trail of MCP calls (`AuditCallHook`, the MCP layer's `callHook`), of REST writes
 * (`RestWriteAuditInterceptor`, put on every write route by `RestWriteAuditRoutes`) and of admin decisions; global because other modules record
 * events through `AuditService`.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [AuditService, AuditCallHook, RestWriteAuditInterceptor, RestWriteAuditRoutes],
  exports: [AuditService, AuditCallHook],
})
export class AuditModule {}
