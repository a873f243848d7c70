import { ApiProperty } from '@nestjs/swagger';

export class ServerStatusDto {
  @ApiProperty({ description: 'Always "ok" when the server answers.' })
  status: string;

  @ApiProperty({ description: 'Server time, ISO 8601 (UTC).', format: 'date-time' })
  time: string;

  @ApiProperty({ description: 'Seconds since the process started.' })
  uptimeSeconds: number;
}
