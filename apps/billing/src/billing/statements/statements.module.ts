import { Module } from '@nestjs/common';
import { AttachmentsModule } from '../attachments/attachments.module.js';
import { StatementsController } from './statements.controller.js';
import { StatementsService } from './statements.service.js';

/** Period statements (CSV exports stored as attachments): the REST route and the background MCP tool that are one handler. */
@Module({
  imports: [AttachmentsModule],
  controllers: [StatementsController],
  providers: [StatementsService],
  exports: [StatementsService],
})
export class StatementsModule {}
