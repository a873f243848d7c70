import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { WorkspaceScopedDto } from '../identity/workspace-scoped.dto.js';

/** Which approval, in which workspace (approvals are workspace data like any other). */
export class ApprovalIdDto extends WorkspaceScopedDto {
  @ApiProperty({ description: 'The approval id from a pending_confirmation answer (envelope.approval.id).', format: 'uuid' })
  @IsUUID()
  approval_id: string;
}

export class ApprovalStatusDto {
  @ApiProperty({ description: 'Approval id.' })
  id: string;

  @ApiProperty({ description: 'The tool the approval is for.' })
  tool: string;

  @ApiProperty({
    description:
      'pending: nobody decided yet; executed: Continue was chosen and the tool ran; failed: it ran and refused; denied: Cancel was chosen; expired: nobody decided in time.',
    enum: ['pending', 'executed', 'failed', 'denied', 'expired'],
  })
  status: 'pending' | 'executed' | 'failed' | 'denied' | 'expired';

  @ApiPropertyOptional({ description: 'While pending: the page where a person decides.' })
  url?: string;

  @ApiProperty({ description: 'When the link expires (ISO 8601).' })
  expires_at: string;

  @ApiPropertyOptional({ description: 'When a person decided (ISO 8601).' })
  decided_at?: string;

  @ApiPropertyOptional({ description: "Once the tool ran: its answer (the tool's JSON envelope).", type: Object })
  result?: unknown;
}
