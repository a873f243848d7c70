import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import type { McpJobView } from '@nest-mcp/core';

/** Which job: the id a queued answer gave (`data.jobId`), or a REST 202's `Location`. */
export class JobIdDto {
  @ApiProperty({
    description: 'The job id (UUID): data.jobId of a queued answer, or the last segment of the Location of a 202 Accepted.',
    format: 'uuid',
  })
  @IsUUID('all', { message: 'job_id must be the job UUID a queued answer gave (data.jobId)' })
  job_id: string;
}

export class JobErrorDto {
  @ApiProperty({ description: 'JSON-RPC error code.', type: 'integer' })
  code: number;

  @ApiProperty({ description: 'What ended the job.' })
  message: string;
}

/** A job as its caller sees it (the layer's `McpJobView`). */
export class JobViewDto implements McpJobView {
  @ApiProperty({ description: 'Job id (UUID).', format: 'uuid' })
  jobId: string;

  @ApiProperty({ description: 'The tool whose work the job runs, e.g. billing_statement_export.' })
  tool: string;

  @ApiProperty({
    description:
      'working: queued or running, call again later; completed: done, result is the answer (check result.ok); ' +
      'failed: it could not run, error says why; cancelled: stopped, nothing it did was kept.',
    enum: ['working', 'input_required', 'completed', 'failed', 'cancelled'],
  })
  status: McpJobView['status'];

  @ApiPropertyOptional({ description: 'Progress or state in words, e.g. "Exporting (1500/4200)".' })
  statusMessage?: string;

  @ApiProperty({ description: 'When the job was accepted (ISO 8601).', format: 'date-time' })
  queuedAt: string;

  @ApiPropertyOptional({ description: 'When its last run started (ISO 8601); absent while it waits in the queue.', format: 'date-time' })
  startedAt?: string;

  @ApiProperty({ description: 'When the job last changed (ISO 8601).', format: 'date-time' })
  lastUpdatedAt: string;

  @ApiPropertyOptional({ description: "Once completed: the tool's answer (its JSON envelope: ok, status, data, errors).", type: Object })
  result?: unknown;

  @ApiPropertyOptional({ description: 'Once failed: what ended it.', type: JobErrorDto })
  error?: JobErrorDto;
}
