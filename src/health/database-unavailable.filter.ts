import { ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { DatabaseUnavailableException } from '../database/database-unavailable.js';

/**
 * REST side of a database outage: `503` with `Retry-After` in the header (not in the body).
 * The MCP endpoint answers the same through its own exception filter (HTTP 503, a JSON-RPC error).
 */
@Catch(DatabaseUnavailableException)
export class DatabaseUnavailableFilter implements ExceptionFilter {
  catch(exception: DatabaseUnavailableException, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    const { headers, ...body } = exception.getResponse() as { headers: Record<string, string> };
    res.set({ ...headers, 'Cache-Control': 'no-store' }).status(exception.getStatus()).json(body);
  }
}
