import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuditCallHook } from './audit-call.hook.js';
import { AuditService } from './audit.service.js';
import { RestWriteAuditInterceptor } from './rest-write-audit.interceptor.js';

/**
 * The audit trail of MCP calls (`AuditCallHook`, the MCP layer's `callHook`), of REST writes
 * (`RestWriteAuditInterceptor`) and of admin decisions; global because other modules record
 * events through `AuditService`.
 */
@Global()
@Module({
  providers: [AuditService, AuditCallHook, { provide: APP_INTERCEPTOR, useClass: RestWriteAuditInterceptor }],
  exports: [AuditService, AuditCallHook],
})
export class AuditModule {}
