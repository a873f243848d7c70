import { HttpStatus } from '@nestjs/common';
import { McpErrorCode } from './mcp-error-codes.js';
/**
 * A protocol fault: becomes a JSON-RPC error object with the given HTTP status.
 * Anything the caller can fix by changing arguments is a tool result with `isError`, not this.
 */
export class McpProtocolError extends Error {
    code;
    httpStatus;
    data;
    headers;
    constructor(code, message, httpStatus = HttpStatus.BAD_REQUEST, data, headers = {}) {
        super(message);
        this.code = code;
        this.httpStatus = httpStatus;
        this.data = data;
        this.headers = headers;
        this.name = 'McpProtocolError';
    }
    static invalidParams(message, data, httpStatus = HttpStatus.OK) {
        return new McpProtocolError(McpErrorCode.InvalidParams, message, httpStatus, data);
    }
    static invalidRequest(message, httpStatus = HttpStatus.BAD_REQUEST) {
        return new McpProtocolError(McpErrorCode.InvalidRequest, message, httpStatus);
    }
    static headerMismatch(detail) {
        return new McpProtocolError(McpErrorCode.HeaderMismatch, `Header mismatch: ${detail}`);
    }
}
//# sourceMappingURL=mcp-protocol.error.js.map