import { ArgumentsHost, Catch, HttpException, HttpStatus, Inject, Logger, type ExceptionFilter } from '@nestjs/common';
import type { JSONRPCErrorResponse, RequestId } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { MCP_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../mcp-options.interface.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { responseVersion } from '../protocol/protocol-version.js';
import { jsonRpcError, sendJsonRpcError } from '../transport/json-rpc-response.js';
import { mcpMessageOf } from '../transport/mcp-request-message.js';
import { responseVersionOf } from './response-version.js';

/**
 * The one place where exceptions become JSON-RPC errors: protocol faults keep their code and
 * status, HTTP exceptions (from guards) keep their status, anything unexpected is logged with a
 * reference and answered `-32603` with a masked message. The request id is always echoed.
 */
@Catch()
export class McpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('McpEndpoint');

  constructor(@Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    const id = mcpMessageOf(req)?.id ?? null;
    const version = responseVersionOf(req) ?? responseVersion(req.headers, this.options);

    const answer = jsonRpcErrorOf(exception, id, this.logger);
    sendJsonRpcError(res, answer.status, version, answer.body, answer.headers);
  }
}

/**
 * An exception as the JSON-RPC error it becomes: protocol faults keep their code and status, HTTP
 * exceptions (from guards) keep their status, anything unexpected is logged with a reference and
 * masked. Also used for an error that ends an SSE answer, whose status is already sent.
 */
export function jsonRpcErrorOf(
  exception: unknown,
  id: RequestId | null,
  logger: Logger,
): { status: number; body: JSONRPCErrorResponse; headers: Record<string, string> } {
  if (exception instanceof McpProtocolError) {
    return {
      status: exception.httpStatus,
      body: jsonRpcError(id, exception.code, exception.message, exception.data),
      headers: exception.headers,
    };
  }
  if (exception instanceof HttpException && exception.getStatus() < 500) {
    const headers = (exception.getResponse() as { headers?: Record<string, string> })?.headers ?? {};
    return { status: exception.getStatus(), body: jsonRpcError(id, McpErrorCode.InvalidRequest, exception.message), headers };
  }
  if (exception instanceof HttpException && exception.getStatus() === HttpStatus.SERVICE_UNAVAILABLE) {
    // A transient outage (e.g. the database): its status, its message and its headers (Retry-After) reach the client.
    const headers = (exception.getResponse() as { headers?: Record<string, string> })?.headers ?? {};
    return { status: HttpStatus.SERVICE_UNAVAILABLE, body: jsonRpcError(id, McpErrorCode.InternalError, exception.message), headers };
  }
  const reference = randomUUID();
  logger.error(`Internal error ${reference}: ${(exception as Error)?.stack ?? String(exception)}`);
  return {
    status: HttpStatus.OK,
    body: jsonRpcError(id, McpErrorCode.InternalError, `Internal error (reference ${reference}); the request was not completed`),
    headers: {},
  };
}
