import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { McpAuthenticationRequiredException } from '@nest-mcp/auth';
import { McpInsufficientScopeException } from '@nest-mcp/core';
import { DatabaseUnavailableException } from '@nest-mcp/prisma';
import { HttpExceptionWithHeaders } from './http-exception-with-headers.js';

/**
 * REST side of every error that carries headers (auth challenges, @nest-mcp/auth's 401 and the
 * step-up 403 among them, database outages): the headers
 * on the response, the rest as the JSON body. Never cached: the answer is about this request's
 * credentials or this moment's outage. The MCP endpoint answers the same errors through its own
 * filter (a JSON-RPC error with the same status and headers).
 */
@Catch(HttpExceptionWithHeaders, DatabaseUnavailableException, McpAuthenticationRequiredException, McpInsufficientScopeException)
export class HttpExceptionWithHeadersFilter implements ExceptionFilter {
  catch(
    exception: HttpExceptionWithHeaders | DatabaseUnavailableException | McpAuthenticationRequiredException | McpInsufficientScopeException,
    host: ArgumentsHost,
  ): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    res
      .set({ ...exception.headers, 'Cache-Control': 'no-store' })
      .status(exception.getStatus())
      .json(
        exception instanceof HttpExceptionWithHeaders || exception instanceof DatabaseUnavailableException
          ? exception.body()
          : exception.getResponse(),
      );
  }
}
