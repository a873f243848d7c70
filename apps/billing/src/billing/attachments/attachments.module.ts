import { Module } from '@nestjs/common';
import { AttachmentStorage } from './attachment-storage.js';
import { AttachmentsController } from './attachments.controller.js';
import { AttachmentsService } from './attachments.service.js';
import { PendingAttachmentsCleanup } from './pending-attachments.cleanup.js';

/** Attachments: REST routes, the MCP tools that dispatch to them, the MCP resources of their bytes, and their storage in parts. */
@Module({
  controllers: [AttachmentsController],
  providers: [AttachmentsService, AttachmentStorage, PendingAttachmentsCleanup],
  exports: [AttachmentsService, AttachmentStorage],
})
export class AttachmentsModule {}
