import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Res, StreamableFile } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { SCOPES } from '../../app.scopes.js';
import { WorkspaceScoped } from '../../identity/workspace-scoped.decorator.js';
import { McpTool, namedArgumentPipe, RequiredScopes } from '@nest-mcp/core';
import { contentDisposition, MAX_ATTACHMENT_LABEL } from './attachment-files.js';
import { AttachmentDto, AttachmentIdDto, UploadAttachmentDto } from './attachment.dto.js';
import { AttachmentsService } from './attachments.service.js';
import { IdempotentRoute } from '../../idempotency/idempotent-route.decorator.js';

@ApiTags('attachments')
@ApiBearerAuth()
@WorkspaceScoped()
@Controller('v1/attachments')
export class AttachmentsController {
  constructor(private readonly attachments: AttachmentsService) {}

  @Post()
  @IdempotentRoute()
  @RequiredScopes(SCOPES.billingWrite)
  @ApiCreatedResponse({ type: AttachmentDto })
  @McpTool({
    name: 'billing_attachment_upload',
    title: 'Store a file (receipt, signed invoice…)',
    description:
      'When to use: the user sends a file that must be kept with the billing records (a transfer receipt, a signed invoice, ' +
      'a voucher), optionally linked to one invoice or one payment. ' +
      `Never use for: files over ${MAX_ATTACHMENT_LABEL}, text you could put in a field, or registering the payment itself ` +
      '(use billing_payment_register, then link the receipt with payment_id). ' +
      'Side effects: stores one file in the workspace (bytes, size and SHA-256). ' +
      'Success criteria: ok is true; data.id is the attachment id, data.sha256 and data.size_bytes describe what was stored. ' +
      'Fallback: attachment_too_large states the cap, send a smaller file; not_found means the invoice_id or payment_id is ' +
      'wrong, check it or upload without the link.',
    output: AttachmentDto,
  })
  upload(@Body() dto: UploadAttachmentDto): Promise<AttachmentDto> {
    return this.attachments.upload(dto);
  }

  @Get(':attachment_id')
  @RequiredScopes(SCOPES.billingRead)
  @ApiOkResponse({ type: AttachmentDto })
  @McpTool({
    name: 'billing_attachment_download',
    title: 'Get a stored file (metadata and download path)',
    description:
      'When to use: you need to know what a stored file is (name, type, size, SHA-256, what it is linked to) or where to ' +
      'fetch it. ' +
      'Never use for: reading the file contents: the bytes are never returned here. ' +
      'Side effects: none. ' +
      'Success criteria: ok is true; data.download_path is where a program holding an API token with billing:read fetches ' +
      'the bytes over REST, data.sha256 verifies them. ' +
      'Fallback: not_found means the id is wrong or belongs to another workspace; ask the user for the right file.',
    annotations: { readOnlyHint: true, idempotentHint: true },
    input: AttachmentIdDto,
    output: AttachmentDto,
  })
  download(@Param('attachment_id', namedArgumentPipe(ParseUUIDPipe)) attachmentId: string): Promise<AttachmentDto> {
    return this.attachments.metadata(attachmentId);
  }

  /** REST only: the bytes, never rendered inline by a browser. */
  @Get(':attachment_id/content')
  @RequiredScopes(SCOPES.billingRead)
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: 'The file bytes, with its Content-Type, Content-Length and an attachment Content-Disposition.' })
  async content(
    @Param('attachment_id', namedArgumentPipe(ParseUUIDPipe)) attachmentId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
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
}
