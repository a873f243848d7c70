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
import { Catch, HttpException, HttpStatus, Inject, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { MCP_BODY_READ, MCP_OPTIONS } from '../mcp.constants.js';
import { requestIdOf } from '../protocol/json-rpc-message.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { responseVersion } from '../protocol/protocol-version.js';
import { jsonRpcError, sendJsonRpcError } from '../transport/json-rpc-response.js';
import { responseVersionOf } from './response-version.js';
/**
 * The one place where exceptions become JSON-RPC errors: protocol faults keep their code and
 * status, HTTP exceptions (from guards) keep their status, anything unexpected is logged with a
 * reference and answered `-32603` with a masked message. The request id is always echoed.
 */
let McpExceptionFilter = class McpExceptionFilter {
    options;
    logger = new Logger('McpEndpoint');
    constructor(options) {
        this.options = options;
    }
    catch(exception, host) {
        const req = host.switchToHttp().getRequest();
        const res = host.switchToHttp().getResponse();
        if (res.headersSent)
            return;
        const id = req[MCP_BODY_READ] ? requestIdOf(req.body) : null;
        const version = responseVersionOf(req) ?? responseVersion(req.headers, this.options);
        const answer = jsonRpcErrorOf(exception, id, this.logger);
        sendJsonRpcError(res, answer.status, version, answer.body, answer.headers);
    }
};
McpExceptionFilter = __decorate([
    Catch(),
    __param(0, Inject(MCP_OPTIONS)),
    __metadata("design:paramtypes", [Object])
], McpExceptionFilter);
export { McpExceptionFilter };
/**
 * An exception as the JSON-RPC error it becomes: protocol faults keep their code and status, HTTP
 * exceptions (from guards) keep their status, anything unexpected is logged with a reference and
 * masked. Also used for an error that ends an SSE answer, whose status is already sent.
 */
export function jsonRpcErrorOf(exception, id, logger) {
    if (exception instanceof McpProtocolError) {
        return { status: exception.httpStatus, body: jsonRpcError(id, exception.code, exception.message, exception.data), headers: exception.headers };
    }
    if (exception instanceof HttpException && exception.getStatus() < 500) {
        const headers = exception.getResponse()?.headers ?? {};
        return { status: exception.getStatus(), body: jsonRpcError(id, McpErrorCode.InvalidRequest, exception.message), headers };
    }
    if (exception instanceof HttpException && exception.getStatus() === HttpStatus.SERVICE_UNAVAILABLE) {
        // A transient outage (e.g. the database): its status, its message and its headers (Retry-After) reach the client.
        const headers = exception.getResponse()?.headers ?? {};
        return { status: HttpStatus.SERVICE_UNAVAILABLE, body: jsonRpcError(id, McpErrorCode.InternalError, exception.message), headers };
    }
    const reference = randomUUID();
    logger.error(`Internal error ${reference}: ${exception?.stack ?? String(exception)}`);
    return {
        status: HttpStatus.OK,
        body: jsonRpcError(id, McpErrorCode.InternalError, `Internal error (reference ${reference}); the request was not completed`),
        headers: {},
    };
}
//# sourceMappingURL=mcp-exception.filter.js.map