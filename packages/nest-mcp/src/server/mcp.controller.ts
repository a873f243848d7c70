import { All, Controller, Delete, Get, HttpStatus, Inject, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { negotiateProtocol } from '../protocol/protocol-negotiation.js';
import { StreamingEndpoint } from './streaming-endpoint.js';
import { sendJson, setMcpResponseHeaders } from '../protocol/json-rpc-response.js';
import { mcpMessageOf, servedMessage, type McpRequestMessage } from '../transport/mcp-request-message.js';
import { McpDispatcher } from './mcp.dispatcher.js';
import { McpExceptionFilter } from './mcp-exception.filter.js';
import { traceMcpRequest, type McpRequestOutcome } from './mcp-tracing.js';
import { setResponseVersion } from './response-version.js';
import { requestContextOf } from '../invocation/request-context.builder.js';
import { recallsClientInfo, StatelessClientInfo } from '../handlers/stateless-client-info.js';

/**
 * The Streamable HTTP endpoint, stateless by default (docs/contract.md §1.1): one JSON-RPC message per POST, one
 * JSON answer. In stream mode (`streams` option) `StreamingEndpoint` serves it instead, with SSE
 * answers, sessions, `GET` and `DELETE`. Its path comes from the module options. Guards of the
 * host application (authentication, rate limits) run before every handler here, after the
 * transport reader has checked size, Host and Origin.
 */
@Controller()
@UseFilters(McpExceptionFilter)
export class McpController {
  constructor(
    private readonly dispatcher: McpDispatcher,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly streaming: StreamingEndpoint,
    private readonly clientInfo: StatelessClientInfo,
  ) {}

  @Post()
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    const read = mcpMessageOf(req);
    if (!read) throw new Error('The MCP body reader did not run: call useMcpTransport(app) before app.init() / app.listen()');
    return traceMcpRequest(req, read, () => (this.options.streams ? this.streaming.post(req, res, read) : this.serve(req, res, read)));
  }

  /** Stream mode: the session's standalone SSE stream. */
  @Get()
  async get(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (!this.options.streams) return this.methodNotAllowed(req);
    await this.streaming.get(req, res);
  }

  /** Stream mode: ends a session. */
  @Delete()
  async delete(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (!this.options.streams) return this.methodNotAllowed(req);
    await this.streaming.delete(req, res);
  }

  /** One message, inside its span: resolves with the result sent (undefined for a notification). */
  private async serve(req: Request, res: Response, read: McpRequestMessage): Promise<McpRequestOutcome> {
    const message = servedMessage(read);
    const protocol = negotiateProtocol(message, req.headers, this.options, read.tool?.headerParameters);
    setResponseVersion(req, protocol.version);

    if (message.id === undefined) {
      setMcpResponseHeaders(res, protocol.version);
      res.status(HttpStatus.ACCEPTED).end();
      return undefined;
    }
    const context = requestContextOf(message, protocol, req);
    if (recallsClientInfo(context)) {
      // A handshake-era request says nothing about its client: what the caller's `initialize` said.
      const clientInfo = await this.clientInfo.recall(req);
      if (clientInfo) context.clientInfo = clientInfo;
    }
    const result = await this.dispatcher.dispatch(message, context, read.tool);
    setResponseVersion(req, context.protocolVersion);
    setMcpResponseHeaders(res, context.protocolVersion);
    sendJson(res, HttpStatus.OK, { jsonrpc: '2.0', id: message.id, result });
    return result;
  }

  /**
   * Without stream mode, GET (no server→client stream) and DELETE (no sessions) are not offered:
   * 405 with `Allow: POST`, answered by the endpoint's exception filter like every other protocol fault.
   */
  @All()
  methodNotAllowed(@Req() req: Request): never {
    throw new McpProtocolError(
      McpErrorCode.InvalidRequest,
      `Method not allowed: ${req.method}. This stateless endpoint accepts POST only (one JSON-RPC message per request).`,
      HttpStatus.METHOD_NOT_ALLOWED,
      undefined,
      { Allow: 'POST' },
    );
  }
}
