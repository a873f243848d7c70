var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Global, Module } from '@nestjs/common';
import { MCP_CALL_HOOK } from '../mcp/index.js';
import { AuditCallHook } from './audit-call.hook.js';
import { AuditService } from './audit.service.js';
/** The audit trail of MCP calls; global so the MCP layer finds its call hook. */
let AuditModule = class AuditModule {
};
AuditModule = __decorate([
    Global(),
    Module({
        providers: [AuditService, AuditCallHook, { provide: MCP_CALL_HOOK, useExisting: AuditCallHook }],
        exports: [AuditService, MCP_CALL_HOOK],
    })
], AuditModule);
export { AuditModule };
//# sourceMappingURL=audit.module.js.map