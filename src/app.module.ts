import { Module } from '@nestjs/common';
import { McpModule } from './mcp/index.js';
import { StatusModule } from './status/status.module.js';

@Module({
  imports: [
    McpModule.forRoot({
      serverInfo: { name: 'nest-mcp-billing', title: 'Billing (NestJS + MCP)', version: '0.1.0' },
    }),
    StatusModule,
  ],
})
export class AppModule {}
