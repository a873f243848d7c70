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
 * Deepest nesting of arrays and objects accepted in a message (the envelope counts: the body is
 * level 1, `params` 2, `arguments` 3). Far beyond any tool schema, far below what the recursive
 * code downstream (class-transformer, class-validator, hashing, audit) can walk without a stack
 * overflow.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Reads the MCP request body under the endpoint's own rules, before authentication or any other
 * middleware sees it (SPEC §1): Host and Origin checks, a declared `Content-Length` above the
 * limit refused without reading, an undeclared or understated body cut at the limit while it
 * streams, a body that does not arrive in time answered `408`, JSON parsed without
 * `__proto__` or `constructor` keys and refused beyond `MAX_JSON_DEPTH` levels of nesting.
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
    const timeoutMs = options.bodyTimeoutMs;
    const timer = setTimeout(
      () => settle({ status: HttpStatus.REQUEST_TIMEOUT, code: McpErrorCode.InvalidRequest, message: `Request body not received within ${timeoutMs} ms` }),
      timeoutMs,
    );
    const settle = (failure?: ReadFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
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
    // The client went away before the end: nothing to answer, drop what was buffered.
    req.once('close', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      chunks.length = 0;
    });
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
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    if (error instanceof SyntaxError && /prototype/i.test(error.message)) {
      return {
        failure: {
          status: HttpStatus.BAD_REQUEST,
          code: McpErrorCode.InvalidRequest,
          message: 'Invalid request: "__proto__" and "constructor" keys are not accepted',
        },
      };
    }
    // V8 quotes a piece of the input in some messages ('Unexpected token …, "<input>" is not
    // valid JSON'): never echo the body (it may hold a credential); positions are fine.
    const detail = (error as Error).message;
    return parseError(`Parse error: ${detail.includes('"') ? 'the body is not valid JSON' : detail}`);
  }
  const refusal = shapeRefusal(value, MAX_JSON_DEPTH);
  if (refusal) return { failure: { status: HttpStatus.BAD_REQUEST, code: McpErrorCode.InvalidRequest, message: refusal } };
  return { value };
}

/**
 * What the parsed JSON may not contain, whatever the method: nesting deeper than `limit` levels
 * (recursive code downstream would overflow its stack), and a `constructor` key at any level
 * (class-transformer reads `value.constructor` of nested objects as a class and throws on
 * anything else). Iterative, so any depth is safe to measure.
 */
function shapeRefusal(root: unknown, limit: number): string | undefined {
  if (root === null || typeof root !== 'object') return undefined;
  const nodes: object[] = [root];
  const depths: number[] = [1];
  while (nodes.length) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return `Invalid request: JSON nested deeper than ${limit} levels`;
    if (!Array.isArray(node) && Object.hasOwn(node, 'constructor')) {
      return 'Invalid request: "__proto__" and "constructor" keys are not accepted';
    }
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return undefined;
}
