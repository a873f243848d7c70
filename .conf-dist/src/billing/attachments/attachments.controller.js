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
import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Res, StreamableFile } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { SCOPES } from '../../identity/roles.js';
import { WorkspaceScoped } from '../../identity/workspace-scoped.decorator.js';
import { McpTool, RequiredScopes } from '../../mcp/index.js';
import { contentDisposition, MAX_ATTACHMENT_LABEL } from './attachment-files.js';
import { AttachmentDto, AttachmentIdDto, UploadAttachmentDto } from './attachment.dto.js';
import { AttachmentsService } from './attachments.service.js';
import { IdempotentRoute } from '../../idempotency/idempotent-route.decorator.js';
let AttachmentsController = class AttachmentsController {
    attachments;
    constructor(attachments) {
        this.attachments = attachments;
    }
    upload(dto) {
        return this.attachments.upload(dto);
    }
    download(attachmentId) {
        return this.attachments.metadata(attachmentId);
    }
    /** REST only: the bytes, never rendered inline by a browser. */
    async content(attachmentId, res) {
        const file = await this.attachments.content(attachmentId);
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
        res.setHeader('Cache-Control', 'private, no-store');
        res.setHeader('ETag', `"${file.sha256}"`);
        return new StreamableFile(file.bytes, {
            type: file.contentType,
            length: file.bytes.length,
            disposition: contentDisposition(file.filename),
        });
    }
};
__decorate([
    Post(),
    IdempotentRoute(),
    RequiredScopes(SCOPES.billingWrite),
    ApiCreatedResponse({ type: AttachmentDto }),
    McpTool({
        name: 'billing_attachment_upload',
        title: 'Store a file (receipt, signed invoice…)',
        description: 'When to use: the user sends a file that must be kept with the billing records (a transfer receipt, a signed invoice, ' +
            'a voucher), optionally linked to one invoice or one payment. ' +
            `Never use for: files over ${MAX_ATTACHMENT_LABEL}, text you could put in a field, or registering the payment itself ` +
            '(use billing_payment_register, then link the receipt with payment_id). ' +
            'Side effects: stores one file in the workspace (bytes, size and SHA-256). ' +
            'Success criteria: ok is true; data.id is the attachment id, data.sha256 and data.size_bytes describe what was stored. ' +
            'Fallback: attachment_too_large states the cap, send a smaller file; not_found means the invoice_id or payment_id is ' +
            'wrong, check it or upload without the link.',
        output: AttachmentDto,
    }),
    __param(0, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [UploadAttachmentDto]),
    __metadata("design:returntype", Promise)
], AttachmentsController.prototype, "upload", null);
__decorate([
    Get(':attachment_id'),
    RequiredScopes(SCOPES.billingRead),
    ApiOkResponse({ type: AttachmentDto }),
    McpTool({
        name: 'billing_attachment_download',
        title: 'Get a stored file (metadata and download path)',
        description: 'When to use: you need to know what a stored file is (name, type, size, SHA-256, what it is linked to) or where to ' +
            'fetch it. ' +
            'Never use for: reading the file contents: the bytes are never returned here. ' +
            'Side effects: none. ' +
            'Success criteria: ok is true; data.download_path is where a program holding an API token with billing:read fetches ' +
            'the bytes over REST, data.sha256 verifies them. ' +
            'Fallback: not_found means the id is wrong or belongs to another workspace; ask the user for the right file.',
        annotations: { readOnlyHint: true, idempotentHint: true },
        input: AttachmentIdDto,
        output: AttachmentDto,
    }),
    __param(0, Param('attachment_id', ParseUUIDPipe)),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", Promise)
], AttachmentsController.prototype, "download", null);
__decorate([
    Get(':attachment_id/content'),
    RequiredScopes(SCOPES.billingRead),
    ApiProduces('application/octet-stream'),
    ApiOkResponse({ description: 'The file bytes, with its Content-Type, Content-Length and an attachment Content-Disposition.' }),
    __param(0, Param('attachment_id', ParseUUIDPipe)),
    __param(1, Res({ passthrough: true })),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object]),
    __metadata("design:returntype", Promise)
], AttachmentsController.prototype, "content", null);
AttachmentsController = __decorate([
    ApiTags('attachments'),
    ApiBearerAuth(),
    WorkspaceScoped(),
    Controller('v1/attachments'),
    __metadata("design:paramtypes", [AttachmentsService])
], AttachmentsController);
export { AttachmentsController };
//# sourceMappingURL=attachments.controller.js.map