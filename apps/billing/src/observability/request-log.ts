import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { RequestContext } from '../context/request-context.js';
import { mcpMessageOf, mcpSpanContextOf, mcpTargetOf } from '@nest-mcp/core/extensions';

/** Fields that tie a log line to its request (and, for MCP, to its JSON-RPC message). */
export interface RequestLogFields {
  requestId?: string;
  rpcId?: string | number;
  rpcMethod?: string;
  /** Tool or prompt name (`tools/call`, `prompts/get`) or resource URI (`resources/read`). */
  tool?: string;
  traceId?: string;
}

export const REQUEST_ID_HEADER = 'X-Request-Id';
const REQUEST_ID = Symbol('observability:requestId');
/** A caller's `X-Request-Id` is kept when it is a plain token; anything else gets a fresh id. */
const ACCEPTABLE_REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;
const MAX_FIELD = 128;

type Tagged = Request & { [REQUEST_ID]?: string };

/** The request id of `req`: the caller's `X-Request-Id` when acceptable, else a new UUID; echoed in the answer. */
export function assignRequestId(req: Request, res: Response): string {
  const tagged = req as Tagged;
  if (tagged[REQUEST_ID]) return tagged[REQUEST_ID];
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
  tagged[REQUEST_ID] = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** Request id and, for a body read by the MCP endpoint, its JSON-RPC id, method and target. */
export function requestLogFields(req: Request): RequestLogFields {
  const fields: RequestLogFields = { requestId: (req as Tagged)[REQUEST_ID] };
  const mcp = mcpMessageOf(req);
  if (!mcp) return fields;
  const traceId = mcpSpanContextOf(req)?.traceId;
  if (traceId) fields.traceId = traceId;
  if (mcp.id !== null) fields.rpcId = typeof mcp.id === 'string' ? clip(mcp.id) : mcp.id;
  if (mcp.message) fields.rpcMethod = clip(mcp.message.method);
  const target = mcpTargetOf(mcp.message);
  if (target) fields.tool = clip(target);
  return fields;
}

/** The fields of the request being served, for log lines written while serving it. */
export function currentRequestLogFields(): RequestLogFields | undefined {
  const req = RequestContext.current()?.request;
  return req ? requestLogFields(req) : undefined;
}

/**
 * Express middleware mounted ahead of everything else (the MCP body reader included): gives
 * each request its id and writes one access line when the answer is done, also for requests the
 * body reader refused (413, 415, 408, …). Never logs headers, query strings or bodies.
 */
export function requestLogMiddleware(): RequestHandler {
  const logger = new Logger('HTTP');
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    assignRequestId(req, res);
    res.once('close', () => {
      const status = res.writableFinished ? res.statusCode : 0;
      if (!Logger.isLevelEnabled(status >= 500 ? 'warn' : 'log')) return;
      const fields = {
        ...requestLogFields(req),
        httpMethod: req.method,
        path: clip(req.originalUrl.split('?')[0], 512),
        status,
        durationMs: Math.round(performance.now() - started),
      };
      const line = `${req.method} ${fields.path} ${status || 'aborted'} ${fields.durationMs} ms`;
      // 5xx answers are warnings here: a fault is logged as an error where it happens, and 503s
      // (draining, database down) are expected operations that must not flood the error log.
      if (status >= 500) logger.warn(line, fields);
      else logger.log(line, fields);
    });
    next();
  };
}

/**
 * Nest middleware (after the body parsers): runs the rest of the request with it in the request
 * context, so that any line logged while serving it carries its request id and JSON-RPC fields.
 * It adds no store of its own: where the application's `RequestContextMiddleware` has opened the
 * context it passes; before it, it opens one that knows only the request (the application's,
 * opened next, replaces it for the rest of the request).
 */
@Injectable()
export class RequestLogContextMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction): void {
    assignRequestId(req, res);
    if (RequestContext.current()?.request === req) next();
    else RequestContext.run({ request: req }, next);
  }
}

function clip(value: string, max = MAX_FIELD): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}
