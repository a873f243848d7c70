var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { WorkspaceScopedDto } from '../billing/common/workspace-scoped.dto.js';
/** Which approval, in which workspace (approvals are workspace data like any other). */
export class ApprovalIdDto extends WorkspaceScopedDto {
    approval_id;
}
__decorate([
    ApiProperty({ description: 'The approval id from a pending_confirmation answer (envelope.approval.id).', format: 'uuid' }),
    IsUUID(),
    __metadata("design:type", String)
], ApprovalIdDto.prototype, "approval_id", void 0);
export class ApprovalStatusDto {
    id;
    tool;
    status;
    url;
    expires_at;
    decided_at;
    result;
}
__decorate([
    ApiProperty({ description: 'Approval id.' }),
    __metadata("design:type", String)
], ApprovalStatusDto.prototype, "id", void 0);
__decorate([
    ApiProperty({ description: 'The tool the approval is for.' }),
    __metadata("design:type", String)
], ApprovalStatusDto.prototype, "tool", void 0);
__decorate([
    ApiProperty({
        description: 'pending: nobody decided yet; executed: Continue was chosen and the tool ran; failed: it ran and refused; denied: Cancel was chosen; expired: nobody decided in time.',
        enum: ['pending', 'executed', 'failed', 'denied', 'expired'],
    }),
    __metadata("design:type", String)
], ApprovalStatusDto.prototype, "status", void 0);
__decorate([
    ApiPropertyOptional({ description: 'While pending: the page where a person decides.' }),
    __metadata("design:type", String)
], ApprovalStatusDto.prototype, "url", void 0);
__decorate([
    ApiProperty({ description: 'When the link expires (ISO 8601).' }),
    __metadata("design:type", String)
], ApprovalStatusDto.prototype, "expires_at", void 0);
__decorate([
    ApiPropertyOptional({ description: 'When a person decided (ISO 8601).' }),
    __metadata("design:type", String)
], ApprovalStatusDto.prototype, "decided_at", void 0);
__decorate([
    ApiPropertyOptional({ description: "Once the tool ran: its answer (the tool's JSON envelope).", type: Object }),
    __metadata("design:type", Object)
], ApprovalStatusDto.prototype, "result", void 0);
//# sourceMappingURL=approval-status.dto.js.map