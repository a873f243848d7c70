import { HttpStatus, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { PrismaService } from '../../database/prisma.service.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { BillingError } from '../common/billing.errors.js';
import { currentWorkspaceId } from '../../identity/current-workspace.js';
import { downloadPath, formatBytes, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENT_LABEL } from './attachment-files.js';
import type { AttachmentDto, UploadAttachmentDto } from './attachment.dto.js';

/** Every column but the bytes: metadata reads never load a file. */
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
} as const satisfies Prisma.AttachmentSelect;

type AttachmentMetadata = Prisma.AttachmentGetPayload<{ select: typeof METADATA }>;

export interface AttachmentContent {
  filename: string;
  contentType: string;
  sha256: string;
  bytes: Buffer;
}

const NOT_FOUND_HINT = 'check the attachment id (a UUID) returned by the upload; files of other workspaces are not visible';

/** Files of the current workspace: stored in the database, handed to tools as metadata only. */
@Injectable()
export class AttachmentsService {
  constructor(private readonly prisma: PrismaService) {}

  async upload(dto: UploadAttachmentDto): Promise<AttachmentDto> {
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
    const bytes = Buffer.from(dto.content_base64, 'base64');
    return this.prisma.transaction(async (tx) => {
      if (dto.invoice_id && !(await tx.invoice.findFirst({ where: { id: dto.invoice_id, workspaceId }, select: { id: true } }))) {
        throw BillingError.notFound('Invoice', dto.invoice_id, 'check the invoice id, or upload the file without invoice_id');
      }
      if (dto.payment_id && !(await tx.payment.findFirst({ where: { id: dto.payment_id, workspaceId }, select: { id: true } }))) {
        throw BillingError.notFound('Payment', dto.payment_id, 'check the payment id, or upload the file without payment_id');
      }
      const attachment = await tx.attachment.create({
        data: {
          workspaceId,
          filename: dto.filename,
          contentType: dto.content_type.toLowerCase(),
          sizeBytes: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          content: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          invoiceId: dto.invoice_id ?? null,
          paymentId: dto.payment_id ?? null,
        },
        select: METADATA,
      });
      return toAttachmentDto(attachment);
    });
  }

  async metadata(id: string): Promise<AttachmentDto> {
    const attachment = await this.prisma.db.attachment.findFirst({ where: { id, workspaceId: currentWorkspaceId() }, select: METADATA });
    if (!attachment) throw BillingError.notFound('Attachment', id, NOT_FOUND_HINT);
    return toAttachmentDto(attachment);
  }

  async content(id: string): Promise<AttachmentContent> {
    const attachment = await this.prisma.db.attachment.findFirst({
      where: { id, workspaceId: currentWorkspaceId() },
      select: { filename: true, contentType: true, sha256: true, content: true },
    });
    if (!attachment) throw BillingError.notFound('Attachment', id, NOT_FOUND_HINT);
    const { content } = attachment;
    return {
      filename: attachment.filename,
      contentType: attachment.contentType,
      sha256: attachment.sha256,
      bytes: Buffer.from(content.buffer, content.byteOffset, content.byteLength),
    };
  }
}

function toAttachmentDto(attachment: AttachmentMetadata): AttachmentDto {
  return {
    id: attachment.id,
    filename: attachment.filename,
    content_type: attachment.contentType,
    size_bytes: attachment.sizeBytes,
    sha256: attachment.sha256,
    invoice_id: attachment.invoiceId,
    payment_id: attachment.paymentId,
    download_path: downloadPath(attachment.id),
    download_instructions:
      `The bytes are not part of this answer. Fetch them with GET ${downloadPath(attachment.id)} on this server, sending ` +
      'an API token with the billing:read scope (Authorization: Bearer <token>); compare the SHA-256 of what you get with sha256.',
    created_via: attachment.createdVia,
    created_at: attachment.createdAt.toISOString(),
  };
}
