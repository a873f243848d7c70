var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '../context/request-context.js';
import { PrismaService } from '../database/prisma.service.js';
import { IDENTITY_CONFIG } from '../identity/identity.config.js';
import { approvalUrl } from './approval-url.js';
import { APPROVALS_CONFIG } from './approvals.config.js';
/**
 * Approval links for destructive MCP calls from clients that cannot confirm in the chat (SPEC §4).
 * An approval is bound to the exact call: workspace, requester, tool and arguments hash. An
 * identical call answers the latest approval's outcome while it is fresh (pending, denied,
 * expired, or the stored result); after that window, it asks again. It never runs the tool: a
 * person's Continue does (`ApprovalService.decide`).
 */
let PrismaApprovalGateway = class PrismaApprovalGateway {
    prisma;
    config;
    identity;
    constructor(prisma, config, identity) {
        this.prisma = prisma;
        this.config = config;
        this.identity = identity;
    }
    async request({ tool, invocation }) {
        const { principal, workspace } = RequestContext.require();
        if (!principal || !workspace) {
            throw new BadRequestException(`${tool.name} needs a workspace to ask for approval in. Pass workspace_id and call again.`);
        }
        const argumentsHash = invocation.argumentsHash;
        const now = Date.now();
        const latest = await this.prisma.db.approval.findFirst({
            where: { workspaceId: workspace.id, requestedById: principal.userId, tool: tool.name, argumentsHash },
            orderBy: { createdAt: 'desc' },
        });
        if (latest) {
            const approvalId = latest.id;
            const decidedAt = latest.decidedAt?.getTime() ?? 0;
            const fresh = (at) => now - at < this.config.ttlMs;
            if (latest.status === 'pending' && latest.expiresAt.getTime() > now) {
                return { status: 'pending', approvalId, url: this.url(approvalId), expiresAt: latest.expiresAt };
            }
            if (latest.status === 'pending' && fresh(latest.expiresAt.getTime()))
                return { status: 'expired', approvalId };
            if (latest.status === 'denied' && fresh(decidedAt))
                return { status: 'denied', approvalId };
            if ((latest.status === 'executed' || latest.status === 'failed') && fresh(decidedAt) && latest.result) {
                return { status: 'completed', approvalId, result: latest.result };
            }
        }
        const created = await this.prisma.db.approval.create({
            data: {
                workspaceId: workspace.id,
                requestedById: principal.userId,
                requestedByTokenId: principal.tokenId,
                clientName: invocation.clientInfo?.name,
                clientVersion: invocation.clientInfo?.version,
                tool: tool.name,
                arguments: (invocation.arguments ?? {}),
                argumentsHash,
                expiresAt: new Date(now + this.config.ttlMs),
                // created_via / updated_via are stamped from the request context.
            },
        });
        return { status: 'pending', approvalId: created.id, url: this.url(created.id), expiresAt: created.expiresAt };
    }
    url(id) {
        return approvalUrl(id, this.identity.publicUrl);
    }
};
PrismaApprovalGateway = __decorate([
    Injectable(),
    __param(1, Inject(APPROVALS_CONFIG)),
    __param(2, Inject(IDENTITY_CONFIG)),
    __metadata("design:paramtypes", [PrismaService, Object, Object])
], PrismaApprovalGateway);
export { PrismaApprovalGateway };
//# sourceMappingURL=approval.gateway.js.map