import { McpHeader } from '@nest-mcp/core';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * Arguments of a workspace-scoped operation: the workspace may be named per call. MCP clients
 * mirror it into `Mcp-Param-Workspace-Id`, so a gateway can route or limit by workspace without
 * reading the body; the layer refuses a call whose header and argument disagree.
 */
export class WorkspaceScopedDto {
  @ApiPropertyOptional({
    description:
      'Workspace id or slug to act in. Omit it when your token is bound to one workspace, when you belong to only one, ' +
      'or when the connection sets X-Workspace-Id.',
    example: 'demo',
  })
  @McpHeader('Workspace-Id')
  @IsOptional()
  @IsString()
  @MaxLength(64)
  workspace_id?: string;
}
