import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** Arguments of a workspace-scoped operation: the workspace may be named per call. */
export class WorkspaceScopedDto {
  @ApiPropertyOptional({
    description:
      'Workspace id or slug to act in. Omit it when your token is bound to one workspace, when you belong to only one, ' +
      'or when the connection sets X-Workspace-Id.',
    example: 'demo',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  workspace_id?: string;
}
