import { HttpStatus } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { responseVersion } from '../protocol/protocol-version.js';
import { jsonRpcError, sendJsonRpcError } from '../protocol/json-rpc-response.js';
import { isJsonContentType, readJsonBody, type AuthenticateBeforeRead, type BodyReadFailure } from './json-body.reader.js';
import { attachMcpMessage } from './mcp-request-message.js';
import type { McpRegistry } from '../registry/mcp.registry.js';
import { checkHost, checkOrigin } from './request-origin.check.js';

export { MAX_JSON_DEPTH } from './json-body.reader.js';

/**
 * Reads the MCP request body under the endpoint's own rules, before authentication or any other
 * middleware sees it (docs/contract.md §1.2): Host and Origin checks, `Content-Type: application/json`, then
 * the shared JSON body rules (`readJsonBody`: size limit, slow-body `408`, depth and prototype
 * keys), with a body above `largeBodyBytes` read only after `authenticate` accepted its sender.
 * Failures are JSON-RPC errors with id null.
 */
export function createMcpBodyReader(
  options: ResolvedMcpOptions,
  registry: Pick<McpRegistry, 'tool'>,
  authenticate?: AuthenticateBeforeRead,
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const fail = (failure: BodyReadFailure) => {
      // Whatever is left of the body is not read: close the connection once the answer is out.
      if (!req.complete) res.setHeader('Connection', 'close');
      sendJsonRpcError(
        res,
        failure.status,
        responseVersion(req.headers, options),
        jsonRpcError(null, failure.code, failure.message),
        failure.headers,
      );
    };

    if (req.method !== 'POST') {
      // Stream mode serves GET and DELETE: the same Host and Origin rules, and no body at all.
      if (!options.streams || (req.method !== 'GET' && req.method !== 'DELETE')) return next();
      const refusal = checkHost(req, options) ?? checkOrigin(req, options);
      if (refusal) return fail({ status: HttpStatus.FORBIDDEN, code: McpErrorCode.InvalidRequest, message: refusal });
      if (Number(req.headers['content-length']) > 0 || req.headers['transfer-encoding'] !== undefined) {
        return fail({
          status: HttpStatus.BAD_REQUEST,
          code: McpErrorCode.InvalidRequest,
          message: `A ${req.method} request to the MCP endpoint takes no body`,
        });
      }
      return next();
    }
    const refusal = checkHost(req, options) ?? checkOrigin(req, options);
    if (refusal) return fail({ status: HttpStatus.FORBIDDEN, code: McpErrorCode.InvalidRequest, message: refusal });

    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBodyBytes) {
      return fail({
        status: HttpStatus.PAYLOAD_TOO_LARGE,
        code: McpErrorCode.InvalidRequest,
        message: `Request body too large (limit ${options.maxBodyBytes} bytes)`,
      });
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      return fail({
        status: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
        code: McpErrorCode.InvalidRequest,
        message: 'Content-Type must be application/json',
      });
    }

    const rules = {
      limitBytes: options.maxBodyBytes,
      timeoutMs: options.bodyTimeoutMs,
      authenticateAboveBytes: options.largeBodyBytes,
      authenticate,
      emptyBody: 'refuse',
    } as const;
    readJsonBody(req, rules, (result) => {
      if ('failure' in result) return fail(result.failure);
      req.body = result.value;
      // body-parser (registered later by Nest) skips requests whose body is already read.
      (req as Request & { _body?: boolean })._body = true;
      attachMcpMessage(req, result.value, registry);
      next();
    });
  };
}
