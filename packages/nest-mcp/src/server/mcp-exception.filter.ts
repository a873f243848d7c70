import { ArgumentsHost, Catch, HttpException, HttpStatus, Inject, Logger, type ExceptionFilter } from '@nestjs/common';
import { SERVER_INFO_META_KEY, type JSONRPCErrorResponse, type RequestId } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { toolErrorsFromException } from '../handlers/tool-error.mapper.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import { STATELESS_VERSIONS } from '../protocol/protocol.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import type { InboundMessage } from '../protocol/json-rpc-message.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { responseVersion } from '../protocol/protocol-version.js';
import { exceptionHeaders, isPlainRefusal } from '../access/scope-challenge.js';
import { jsonRpcError, sendJson, sendJsonRpcError, setMcpResponseHeaders } from '../protocol/json-rpc-response.js';
import { mcpMessageOf } from '../transport/mcp-request-message.js';
import type { ToolEntry } from '../invocation/capability-entries.js';
import { responseVersionOf } from './response-version.js';
import { ToolResultRenderer } from '../handlers/tool-result.renderer.js';

/**
 * The one place where exceptions become JSON-RPC errors: protocol faults keep their code and
 * status, HTTP exceptions (from guards) keep their status, anything unexpected is logged with a
 * reference and answered `-32603` with a masked message. The request id is always echoed.
 *
 * Refusals (docs/protocol.md, "Refusals"): the OAuth step-up challenge (403 with
 * `WWW-Authenticate: Bearer error="insufficient_scope"`) stays an HTTP 403 with its header, and so
 * does any refusal by the application's guards on the endpoint's own route (the credential, before
 * a message is served). A plain permission error (any other 403) refusing a message being served,
 * the access policy's refusal of a tool, resource or prompt, is answered as the client can read
 * it: a `tools/call` gets a tool result with `isError: true` (HTTP 200), any other method a
 * JSON-RPC `-32602` error (HTTP 200).
 */
@Catch()
export class McpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('McpEndpoint');

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly renderer: ToolResultRenderer,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    const read = mcpMessageOf(req);
    const id = read?.id ?? null;
    // Set once the endpoint's handler negotiated the message, i.e. after the route's guards passed.
    const served = responseVersionOf(req);
    const version = served ?? responseVersion(req.headers, this.options);

    if (served !== undefined && read?.message && id !== null && isPlainRefusal(exception)) {
      return this.refused(res, served, read.message, read.tool, id, exception);
    }
    const answer = jsonRpcErrorOf(exception, id, this.logger);
    sendJsonRpcError(res, answer.status, version, answer.body, answer.headers);
  }

  /** A plain permission error, answered as the client can read it (HTTP 200). */
  private refused(
    res: Response,
    version: string,
    message: InboundMessage,
    tool: ToolEntry | undefined,
    id: RequestId,
    refusal: HttpException,
  ): void {
    const name = message.params.name;
    if (!tool) {
      const target = typeof name === 'string' ? name : typeof message.params.uri === 'string' ? message.params.uri : message.method;
      sendJsonRpcError(res, HttpStatus.OK, version, jsonRpcError(id, McpErrorCode.InvalidParams, `${target}: ${refusal.message}`));
      return;
    }
    const errors = toolErrorsFromException(refusal, Object.keys(this.options.toolErrorFields)) ?? [];
    const { result } = this.renderer.notRun({ tool, startedAt: performance.now() }, errors);
    // The decorations of a 2026-07-28 result, as the dispatcher adds them to every answer of that era.
    const eraResult = STATELESS_VERSIONS.includes(version)
      ? { resultType: 'complete', ...result, _meta: { [SERVER_INFO_META_KEY]: this.options.serverInfo } }
      : result;
    setMcpResponseHeaders(res, version);
    sendJson(res, HttpStatus.OK, { jsonrpc: '2.0', id, result: eraResult });
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
    const headers = exceptionHeaders(exception);
    return { status: exception.getStatus(), body: jsonRpcError(id, McpErrorCode.InvalidRequest, exception.message), headers };
  }
  if (exception instanceof HttpException && exception.getStatus() === HttpStatus.SERVICE_UNAVAILABLE) {
    // A transient outage (e.g. the database): its status, its message and its headers (Retry-After) reach the client.
    const headers = exceptionHeaders(exception);
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
