import { Module } from '@nestjs/common';

/** Attachments: REST routes and the MCP tools that dispatch to them. */
@Module({})
export class AttachmentsModule {}
