import { HttpStatus, Injectable } from '@nestjs/common';
import type { McpInvocation } from '@nest-mcp/core';
import { createHash } from 'node:crypto';
import { PrismaService } from '../../database/prisma.service.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { BillingError } from '../common/billing.errors.js';
import { currentWorkspaceId } from '../../identity/current-workspace.js';
import {
  attachmentPartUri,
  attachmentUri,
  downloadPath,
  formatBytes,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENT_LABEL,
} from './attachment-files.js';
import { AttachmentStorage, type StoredFile } from './attachment-storage.js';
import type { AttachmentDto, UploadAttachmentDto } from './attachment.dto.js';

/** Every column but the bytes, and how many parts hold them: metadata reads never load a file. */
const METADATA = {
  id: true,
  filename: true,
  contentType: true,
  sizeBytes: true,
  sha256: true,
  invoiceId: true,
  paymentId: true,
  createdVia: true,
  createdAt: true,
  _count: { select: { parts: true } },
} as const satisfies Prisma.AttachmentSelect;

type AttachmentMetadata = Prisma.AttachmentGetPayload<{ select: typeof METADATA }>;

/** Only ready files: a pending one (an export still writing, or one that failed) is visible to no read. */
const READY = { status: 'ready' } as const satisfies Prisma.AttachmentWhereInput;

export const NOT_FOUND_HINT = 'check the attachment id (a UUID) returned by the upload; files of other workspaces are not visible';

/** Files of the current workspace: stored in the database, handed to tools as metadata only. */
@Injectable()
export class AttachmentsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly storage: AttachmentStorage,
  ) {}

  /**
   * `invocation`, over MCP: the steps are reported as progress (`notifications/progress`, for a
   * client that sent a progress token): a file of several megabytes takes a moment to check and store.
   */
  async upload(dto: UploadAttachmentDto, invocation?: Pick<McpInvocation, 'progress'>): Promise<AttachmentDto> {
    const workspaceId = currentWorkspaceId();
    const size = Buffer.byteLength(dto.content_base64, 'base64');
    if (size > MAX_ATTACHMENT_BYTES) {
      throw new BillingError(
        HttpStatus.PAYLOAD_TOO_LARGE,
        'attachment_too_large',
        `The file is ${size} bytes (${formatBytes(size)}); the cap is ${MAX_ATTACHMENT_LABEL}. Nothing was stored. ` +
          'Send a smaller file (compress it, lower the image resolution, or split the document).',
        {
          message_es: `El archivo pesa ${formatBytes(size)}; el máximo es ${MAX_ATTACHMENT_LABEL}. No se guardó nada.`,
          field: 'content_base64',
        },
      );
    }
    if (dto.invoice_id && dto.payment_id) {
      throw BillingError.businessRule(
        'too_many_links',
        'Give at most one of invoice_id and payment_id: link the file to the payment it proves, or to the invoice it belongs to.',
        'Indica solo uno: invoice_id o payment_id.',
        'payment_id',
      );
    }
    await invocation?.progress(0, 3, `Decoding ${formatBytes(size)}`);
    const bytes = Buffer.from(dto.content_base64, 'base64');
    return this.prisma.transaction(async (tx) => {
      if (dto.invoice_id || dto.payment_id)
        await invocation?.progress(1, 3, `Checking the ${dto.invoice_id ? 'invoice' : 'payment'} to link`);
      if (dto.invoice_id && !(await tx.invoice.findFirst({ where: { id: dto.invoice_id, workspaceId }, select: { id: true } }))) {
        throw BillingError.notFound('Invoice', dto.invoice_id, 'check the invoice id, or upload the file without invoice_id');
      }
      if (dto.payment_id && !(await tx.payment.findFirst({ where: { id: dto.payment_id, workspaceId }, select: { id: true } }))) {
        throw BillingError.notFound('Payment', dto.payment_id, 'check the payment id, or upload the file without payment_id');
      }
      await invocation?.progress(2, 3, `Storing ${dto.filename} (${formatBytes(size)})`);
      const attachment = await tx.attachment.create({
        data: {
          workspaceId,
          filename: dto.filename,
          contentType: dto.content_type.toLowerCase(),
          sizeBytes: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          // One part: an upload is at most MAX_ATTACHMENT_BYTES, and arrived whole in the request anyway.
          parts: { create: { seq: 1, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) } },
          invoiceId: dto.invoice_id ?? null,
          paymentId: dto.payment_id ?? null,
        },
        select: METADATA,
      });
      return toAttachmentDto(attachment);
    });
  }

  async metadata(id: string): Promise<AttachmentDto> {
    const attachment = await this.prisma.db.attachment.findFirst({
      where: { id, workspaceId: currentWorkspaceId(), ...READY },
      select: METADATA,
    });
    if (!attachment) throw BillingError.notFound('Attachment', id, NOT_FOUND_HINT);
    return toAttachmentDto(attachment);
  }

  /** A ready file of the current workspace (its description; `AttachmentStorage` reads its bytes), or not_found. */
  async file(id: string): Promise<StoredFile> {
    const file = await this.storage.find(currentWorkspaceId(), id);
    if (!file) throw BillingError.notFound('Attachment', id, NOT_FOUND_HINT);
    return file;
  }
}

function toAttachmentDto(attachment: AttachmentMetadata): AttachmentDto {
  // A file stored before parts existed has none: its bytes are its one part.
  const parts = Math.max(1, attachment._count.parts);
  const uri = attachmentUri(attachment.id);
  return {
    id: attachment.id,
    filename: attachment.filename,
    content_type: attachment.contentType,
    size_bytes: attachment.sizeBytes,
    sha256: attachment.sha256,
    invoice_id: attachment.invoiceId,
    payment_id: attachment.paymentId,
    download_path: downloadPath(attachment.id),
    resource_uri: uri,
    parts,
    download_instructions:
      'The bytes are not part of this answer. ' +
      (parts === 1
        ? `Over MCP, read the resource ${uri} (resources/read); `
        : `Over MCP, read the resources ${attachmentPartUri(attachment.id, 1)} to ${attachmentPartUri(attachment.id, parts)} ` +
          '(resources/read) and join them in order; ') +
      `over REST, GET ${downloadPath(attachment.id)} on this server with an API token with the billing:read scope ` +
      '(Authorization: Bearer <token>). Compare the SHA-256 of the bytes with sha256.',
    created_via: attachment.createdVia,
    created_at: attachment.createdAt.toISOString(),
  };
}
