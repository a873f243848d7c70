import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { exceptionHeaders } from '../access/scope-challenge.js';

/** Why a body was not accepted: the HTTP status, a JSON-RPC code (the MCP endpoint's answer), a message, headers. */
export interface BodyReadFailure {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
}

export type BodyReadResult = { value: unknown } | { failure: BodyReadFailure };

/** Checks a request's credentials from its headers alone; rejects to refuse the request. */
export type AuthenticateBeforeRead = (req: Request) => Promise<void>;

/** The rules one body is read under, decided per request by the reader that mounts `readJsonBody`. */
export interface JsonBodyRules {
  limitBytes: number;
  /** The whole body must arrive within this long, or `408`. */
  timeoutMs: number;
  /**
   * A body larger than this (declared, or once this much has streamed) is read only after
   * `authenticate` resolved: parsing megabytes for a caller without a credential is what an
   * attacker would ask the server to do. Smaller bodies are read first, as before.
   */
  authenticateAboveBytes: number;
  /** Checks the credentials in the headers; rejects (an `HttpException`, e.g. 401 with its challenge) to refuse. */
  authenticate?: AuthenticateBeforeRead;
  /** An empty body: `{}` (what REST body parsers give) or a parse error (MCP: one message per POST). */
  emptyBody: 'empty-object' | 'refuse';
}

/**
 * Deepest nesting of arrays and objects accepted in a message (the envelope counts: the body is
 * level 1, `params` 2, `arguments` 3). Far beyond any tool schema, far below what the recursive
 * code downstream (class-transformer, class-validator, hashing, audit) can walk without a stack
 * overflow.
 */
export const MAX_JSON_DEPTH = 64;

const logger = new Logger('BodyReader');

/**
 * Reads and parses a JSON body under `rules`, then calls `done` once: a declared
 * `Content-Length` above the limit refused without reading, an undeclared or understated body cut
 * at the limit while it streams, a large body read only once its sender authenticated, a body
 * that does not arrive in time `408`, JSON parsed without `__proto__` or `constructor` keys and
 * refused beyond `MAX_JSON_DEPTH` levels of nesting. Shared by the MCP endpoint and REST routes;
 * each answers a failure in its own shape.
 */
export function readJsonBody(req: Request, rules: JsonBodyRules, done: (result: BodyReadResult) => void): void {
  const tooLarge: BodyReadFailure = {
    status: HttpStatus.PAYLOAD_TOO_LARGE,
    code: McpErrorCode.InvalidRequest,
    message: `Request body too large (limit ${rules.limitBytes} bytes)`,
  };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > rules.limitBytes) return done({ failure: tooLarge });

  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  // Nothing to check when there is no hook; otherwise checked once, before the large part is read.
  let authenticated = !rules.authenticate;
  let authenticating = false;
  const timer = setTimeout(
    () =>
      settle({
        failure: {
          status: HttpStatus.REQUEST_TIMEOUT,
          code: McpErrorCode.InvalidRequest,
          message: `Request body not received within ${rules.timeoutMs} ms`,
        },
      }),
    rules.timeoutMs,
  );
  const settle = (result?: BodyReadResult) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    req.off('data', onData);
    if (result) {
      req.pause();
      chunks.length = 0;
      return done(result);
    }
    done(parseJson(Buffer.concat(chunks, received), rules.emptyBody));
  };
  /** Stops reading until the sender's credentials are checked; resumes only if they are good. */
  const authenticateFirst = (then: () => void) => {
    authenticating = true;
    req.pause();
    // Through a promise, so a hook that throws synchronously is a refusal too.
    Promise.resolve(req)
      .then(rules.authenticate)
      .then(
        () => {
          authenticated = true;
          if (!settled) then();
        },
        (error: unknown) => settle({ failure: failureOf(error) }),
      );
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > rules.limitBytes) return settle({ failure: tooLarge });
    chunks.push(chunk);
    // A chunked body (no Content-Length) that grows past the threshold: authenticate before more.
    if (!authenticated && !authenticating && received > rules.authenticateAboveBytes) authenticateFirst(() => req.resume());
  };
  const startReading = () => {
    req.on('data', onData);
    req.once('end', () => settle());
    req.resume();
  };
  req.once('error', () =>
    settle({ failure: { status: HttpStatus.BAD_REQUEST, code: McpErrorCode.ParseError, message: 'Request body could not be read' } }),
  );
  // The client went away before the end: nothing to answer, drop what was buffered.
  req.once('close', () => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    req.off('data', onData);
    chunks.length = 0;
  });

  if (!authenticated && Number.isFinite(declared) && declared > rules.authenticateAboveBytes) authenticateFirst(startReading);
  else startReading();
}

/** An exception of the authentication hook as a failure: an `HttpException` keeps its status, message and headers. */
function failureOf(error: unknown): BodyReadFailure {
  if (error instanceof HttpException) {
    const status = error.getStatus();
    // Its own `headers` property (McpInsufficientScopeException, @nest-mcp/auth's 401) or `headers` in its response object.
    const found = exceptionHeaders(error);
    const headers = Object.keys(found).length ? found : undefined;
    const code = status >= 500 ? McpErrorCode.InternalError : McpErrorCode.InvalidRequest;
    return { status, code, message: error.message, ...(headers ? { headers } : {}) };
  }
  const reference = randomUUID();
  logger.error(`Internal error ${reference} while authenticating before reading a body: ${(error as Error)?.stack ?? String(error)}`);
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    code: McpErrorCode.InternalError,
    message: `Internal error (reference ${reference}); the request was not completed`,
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseJson(buffer: Buffer, emptyBody: JsonBodyRules['emptyBody']): BodyReadResult {
  const parseError = (message: string) => ({
    failure: { status: HttpStatus.BAD_REQUEST, code: McpErrorCode.ParseError, message },
  });
  let text: string;
  try {
    text = utf8.decode(buffer);
  } catch {
    return parseError('Parse error: the body is not valid UTF-8');
  }
  if (!text.trim()) {
    return emptyBody === 'empty-object' ? { value: {} } : parseError('Parse error: the body is empty; send one JSON-RPC message');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
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
 * What the parsed JSON may not contain, whatever the method, found in one walk of the parsed tree:
 * nesting deeper than `limit` levels (recursive code downstream would overflow its stack), a
 * `__proto__` key at any level (`JSON.parse` keeps it as a plain own key, but any code that
 * copies or merges the value would set a prototype with it; escaped spellings parse to the same
 * key), and a `constructor` key at any level (class-transformer reads `value.constructor` of
 * nested objects as a class and throws on anything else). Iterative, so any depth is safe to
 * measure.
 */
function shapeRefusal(root: unknown, limit: number): string | undefined {
  if (root === null || typeof root !== 'object') return undefined;
  const nodes: object[] = [root];
  const depths: number[] = [1];
  while (nodes.length) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return `Invalid request: JSON nested deeper than ${limit} levels`;
    if (!Array.isArray(node) && (Object.hasOwn(node, '__proto__') || Object.hasOwn(node, 'constructor'))) {
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

export function isJsonContentType(contentType: string | undefined): boolean {
  return !!contentType && contentType.split(';')[0].trim().toLowerCase() === 'application/json';
}
