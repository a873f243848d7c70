var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Global, Module } from '@nestjs/common';
import { MCP_APPROVAL_GATEWAY } from '../mcp/index.js';
import { PrismaApprovalGateway } from './approval.gateway.js';
import { ApprovalsController } from './approvals.controller.js';
import { ApprovalService } from './approval.service.js';
import { APPROVALS_CONFIG, approvalsConfigFromEnv } from './approvals.config.js';
/**
 * Approval links for destructive MCP calls (SPEC §4): the gateway the MCP layer asks, and the
 * service the admin pages use to show and decide. Global so the layer finds the gateway.
 */
let ApprovalsModule = class ApprovalsModule {
};
ApprovalsModule = __decorate([
    Global(),
    Module({
        controllers: [ApprovalsController],
        providers: [
            { provide: APPROVALS_CONFIG, useFactory: () => approvalsConfigFromEnv() },
            PrismaApprovalGateway,
            { provide: MCP_APPROVAL_GATEWAY, useExisting: PrismaApprovalGateway },
            ApprovalService,
        ],
        exports: [MCP_APPROVAL_GATEWAY, ApprovalService],
    })
], ApprovalsModule);
export { ApprovalsModule };
//# sourceMappingURL=approvals.module.js.map