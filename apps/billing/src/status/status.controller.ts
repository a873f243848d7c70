import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { McpTool } from '@nest-mcp/core';
import { ServerStatusDto } from './status.dto.js';

@ApiTags('status')
@Controller('v1/status')
export class StatusController {
  @Get()
  @ApiOkResponse({ type: ServerStatusDto })
  @McpTool({
    name: 'server_status',
    title: 'Server status',
    description:
      'When to use: to check that the billing backend is reachable and what time it keeps. ' +
      'Never use for: business data. Side effects: none. Success criteria: status is "ok". ' +
      'Fallback: if it fails, tell the user the backend is unreachable.',
    annotations: { readOnlyHint: true, idempotentHint: true },
    output: ServerStatusDto,
  })
  status(): ServerStatusDto {
    return { status: 'ok', time: new Date().toISOString(), uptimeSeconds: Math.round(process.uptime()) };
  }
}
