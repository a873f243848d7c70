import { HttpStatus } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { isJsonContentType, readJsonBody, type BodyReadFailure, type JsonBodyRules } from './json-body.reader.js';

const HANDLED = Symbol('restBodyReader.handled');

/** The rules of one REST request's body (the reader decides the empty-body rule: `{}`, as body-parser). */
export type RestBodyRules = Omit<JsonBodyRules, 'emptyBody'>;

/**
 * The host application's JSON body parser for REST routes, under the same rules as the MCP
 * endpoint (`readJsonBody`): size limit without reading a larger declared body, slow-body `408`,
 * depth and prototype-key refusals (`400`, where deep JSON used to overflow class-transformer's
 * stack: a 500), and authentication before a large body is read. Failures are answered in Nest's
 * REST error shape (`{ statusCode, error, message }`), with the headers of a refused credential
 * (`WWW-Authenticate`). Other content types are left to the parsers after it, under the same
 * deadline; a body already read (the MCP endpoint's) is left alone.
 */
export function createRestBodyReader(rulesOf: (req: Request) => RestBodyRules): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const marked = req as Request & { _body?: boolean; [HANDLED]?: true };
    // Several readers may be mounted (one per path with its own limit): the first that sees a request owns it.
    if (marked[HANDLED] || marked._body || !hasBody(req)) return next();
    marked[HANDLED] = true;
    const rules = rulesOf(req);
    if (!isJsonContentType(req.headers['content-type'])) {
      guardDeadline(req, res, rules.timeoutMs);
      return next();
    }
    readJsonBody(req, { ...rules, emptyBody: 'empty-object' }, (result) => {
      if ('failure' in result) return sendRestFailure(req, res, result.failure);
      if (result.value === null || typeof result.value !== 'object') {
        return sendRestFailure(req, res, {
          status: HttpStatus.BAD_REQUEST,
          code: McpErrorCode.InvalidRequest,
          message: 'The body must be a JSON object or array',
        });
      }
      req.body = result.value;
      // body-parser (registered later by Nest) skips requests whose body is already read.
      (req as Request & { _body?: boolean })._body = true;
      next();
    });
  };
}

/**
 * A body another parser reads (a form, on the admin pages) gets the same deadline: if it has not
 * fully arrived in time, `408` and the connection is closed, which also ends that parser's read.
 */
function guardDeadline(req: Request, res: Response, timeoutMs: number): void {
  const timer = setTimeout(() => {
    if (req.complete || res.headersSent) return;
    sendRestFailure(req, res, {
      status: HttpStatus.REQUEST_TIMEOUT,
      code: McpErrorCode.InvalidRequest,
      message: `Request body not received within ${timeoutMs} ms`,
    });
  }, timeoutMs);
  const stop = () => clearTimeout(timer);
  req.once('end', stop);
  res.once('close', stop);
}

/** body-parser's test: a request has a body when it says how it is framed. */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number.parseInt(req.headers['content-length'] ?? '', 10));
}

function sendRestFailure(req: Request, res: Response, failure: BodyReadFailure): void {
  // Whatever is left of the body is not read: close the connection once the answer is out.
  if (!req.complete) res.setHeader('Connection', 'close');
  for (const [name, value] of Object.entries(failure.headers ?? {})) res.setHeader(name, value);
  const body = JSON.stringify({ statusCode: failure.status, error: STATUS_CODES[failure.status] ?? 'Error', message: failure.message });
  res.status(failure.status);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
