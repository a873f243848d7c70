import { HttpStatus } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import secureJson from 'secure-json-parse';
import { MCP_BODY_READ } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../mcp-options.interface.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { responseVersion } from '../protocol/protocol-version.js';
import { jsonRpcError, sendJsonRpcError } from './json-rpc-response.js';
import { checkHost, checkOrigin } from './request-origin.check.js';

type ReadFailure = { status: number; code: number; message: string };

/**
 * Reads the MCP request body under the endpoint's own rules, before authentication or any other
 * middleware sees it (SPEC §1): Host and Origin checks, a declared `Content-Length` above the
 * limit refused without reading, an undeclared or understated body cut at the limit while it
 * streams, JSON parsed without prototype-polluting keys.
 */
export function createMcpBodyReader(options: ResolvedMcpOptions): RequestHandler {
  const tooLarge: ReadFailure = {
    status: HttpStatus.PAYLOAD_TOO_LARGE,
    code: McpErrorCode.InvalidRequest,
    message: `Request body too large (limit ${options.maxBodyBytes} bytes)`,
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST') return next();
    const fail = (failure: ReadFailure) => {
      // Whatever is left of the body is not read: close the connection once the answer is out.
      if (!req.complete) res.setHeader('Connection', 'close');
      sendJsonRpcError(
        res,
        failure.status,
        responseVersion(req.headers, options),
        jsonRpcError(null, failure.code, failure.message),
      );
    };

    const refusal = checkHost(req, options) ?? checkOrigin(req, options);
    if (refusal) return fail({ status: HttpStatus.FORBIDDEN, code: McpErrorCode.InvalidRequest, message: refusal });

    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBodyBytes) return fail(tooLarge);

    if (!isJsonContentType(req.headers['content-type'])) {
      return fail({
        status: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
        code: McpErrorCode.InvalidRequest,
        message: 'Content-Type must be application/json',
      });
    }

    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (failure?: ReadFailure) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      if (failure) {
        req.pause();
        return fail(failure);
      }
      const parsed = parseJson(Buffer.concat(chunks, received));
      if ('failure' in parsed) return fail(parsed.failure);
      req.body = parsed.value;
      // body-parser (registered later by Nest) skips requests whose body is already read.
      (req as Request & { _body?: boolean })._body = true;
      (req as unknown as Record<symbol, boolean>)[MCP_BODY_READ] = true;
      next();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > options.maxBodyBytes) return settle(tooLarge);
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => settle());
    req.once('error', () =>
      settle({ status: HttpStatus.BAD_REQUEST, code: McpErrorCode.ParseError, message: 'Request body could not be read' }),
    );
  };
}

function isJsonContentType(contentType: string | undefined): boolean {
  return !!contentType && contentType.split(';')[0].trim().toLowerCase() === 'application/json';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseJson(buffer: Buffer): { value: unknown } | { failure: ReadFailure } {
  const parseError = (message: string) => ({
    failure: { status: HttpStatus.BAD_REQUEST, code: McpErrorCode.ParseError, message },
  });
  let text: string;
  try {
    text = utf8.decode(buffer);
  } catch {
    return parseError('Parse error: the body is not valid UTF-8');
  }
  if (!text.trim()) return parseError('Parse error: the body is empty; send one JSON-RPC message');
  try {
    return { value: secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }) };
  } catch (error) {
    if (error instanceof SyntaxError && /prototype/i.test(error.message)) {
      return {
        failure: {
          status: HttpStatus.BAD_REQUEST,
          code: McpErrorCode.InvalidRequest,
          message: 'Invalid request: "__proto__" and "constructor.prototype" keys are not accepted',
        },
      };
    }
    return parseError(`Parse error: ${(error as Error).message}`);
  }
}
