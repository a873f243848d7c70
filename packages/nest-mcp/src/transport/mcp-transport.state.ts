import { Injectable } from '@nestjs/common';

/** Whether `useMcpTransport(app)` mounted the body reader; checked when the application boots. */
@Injectable()
export class McpTransportState {
  mounted = false;
}
