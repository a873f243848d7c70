var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { All, Controller, Delete, Get, HttpStatus, Inject, Post, Req, Res, UseFilters } from '@nestjs/common';
import { MCP_BODY_READ, MCP_OPTIONS } from '../mcp.constants.js';
import { isPlainObject, parseInboundMessage } from '../protocol/json-rpc-message.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { negotiateProtocol } from '../protocol/protocol-negotiation.js';
import { responseVersion } from '../protocol/protocol-version.js';
import { StreamingEndpoint } from '../streams/streaming-endpoint.js';
import { jsonRpcError, sendJson, sendJsonRpcError, setMcpResponseHeaders } from '../transport/json-rpc-response.js';
import { McpDispatcher } from './mcp.dispatcher.js';
import { McpExceptionFilter } from './mcp-exception.filter.js';
import { traceMcpRequest } from './mcp-tracing.js';
import { setResponseVersion } from './response-version.js';
/**
 * The Streamable HTTP endpoint, stateless by default (SPEC §1): one JSON-RPC message per POST, one
 * JSON answer. In stream mode (`streams` option) `StreamingEndpoint` serves it instead, with SSE
 * answers, sessions, `GET` and `DELETE`. Its path comes from the module options. Guards of the
 * host application (authentication, rate limits) run before every handler here, after the
 * transport reader has checked size, Host and Origin.
 */
let McpController = class McpController {
    dispatcher;
    options;
    streaming;
    constructor(dispatcher, options, streaming) {
        this.dispatcher = dispatcher;
        this.options = options;
        this.streaming = streaming;
    }
    async post(req, res) {
        if (!req[MCP_BODY_READ]) {
            throw new Error('The MCP body reader did not run: call useMcpTransport(app) before app.init() / app.listen()');
        }
        return traceMcpRequest(req, () => (this.options.streams ? this.streaming.post(req, res) : this.serve(req, res)));
    }
    /** Stream mode: the session's standalone SSE stream. */
    async get(req, res) {
        if (!this.options.streams)
            return this.methodNotAllowed(req, res);
        await this.streaming.get(req, res);
    }
    /** Stream mode: ends a session. */
    async delete(req, res) {
        if (!this.options.streams)
            return this.methodNotAllowed(req, res);
        await this.streaming.delete(req, res);
    }
    /** One message, inside its span: resolves with the result sent (undefined for a notification). */
    async serve(req, res) {
        const message = parseInboundMessage(req.body);
        const protocol = negotiateProtocol(message, req.headers, this.options);
        setResponseVersion(req, protocol.version);
        if (message.id === undefined) {
            setMcpResponseHeaders(res, protocol.version);
            res.status(HttpStatus.ACCEPTED).end();
            return undefined;
        }
        const context = {
            era: protocol.era,
            protocolVersion: protocol.version,
            method: message.method,
            requestId: message.id,
            clientCapabilities: protocol.clientCapabilities,
            ...(protocol.clientInfo ? { clientInfo: protocol.clientInfo } : {}),
            meta: isPlainObject(message.params._meta) ? message.params._meta : {},
            httpRequest: req,
        };
        const result = await this.dispatcher.dispatch(message, context);
        setResponseVersion(req, context.protocolVersion);
        setMcpResponseHeaders(res, context.protocolVersion);
        sendJson(res, HttpStatus.OK, { jsonrpc: '2.0', id: message.id, result });
        return result;
    }
    /** Without stream mode GET (no server→client stream) and DELETE (no sessions) are not offered: 405 with `Allow: POST`. */
    methodNotAllowed(req, res) {
        const error = new McpProtocolError(McpErrorCode.InvalidRequest, `Method not allowed: ${req.method}. This stateless endpoint accepts POST only (one JSON-RPC message per request).`, HttpStatus.METHOD_NOT_ALLOWED);
        sendJsonRpcError(res, error.httpStatus, responseVersion(req.headers, this.options), jsonRpcError(null, error.code, error.message), {
            Allow: 'POST',
        });
    }
};
__decorate([
    Post(),
    __param(0, Req()),
    __param(1, Res()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], McpController.prototype, "post", null);
__decorate([
    Get(),
    __param(0, Req()),
    __param(1, Res()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], McpController.prototype, "get", null);
__decorate([
    Delete(),
    __param(0, Req()),
    __param(1, Res()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], McpController.prototype, "delete", null);
__decorate([
    All(),
    __param(0, Req()),
    __param(1, Res()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", void 0)
], McpController.prototype, "methodNotAllowed", null);
McpController = __decorate([
    Controller(),
    UseFilters(McpExceptionFilter),
    __param(1, Inject(MCP_OPTIONS)),
    __metadata("design:paramtypes", [McpDispatcher, Object, StreamingEndpoint])
], McpController);
export { McpController };
//# sourceMappingURL=mcp.controller.js.map