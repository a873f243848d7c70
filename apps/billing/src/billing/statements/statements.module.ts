import { Module } from '@nestjs/common';
import { StatementsController } from './statements.controller.js';
import { StatementsService } from './statements.service.js';

/** Period statements (CSV exports stored as attachments): the REST route and the background MCP tool that are one handler. */
@Module({
  controllers: [StatementsController],
  providers: [StatementsService],
})
export class StatementsModule {}
