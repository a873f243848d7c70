var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { MCP_BODY_READ } from '../mcp/index.js';
import { mcpSpanContextOf } from '../mcp/server/mcp-tracing.js';
export const REQUEST_ID_HEADER = 'X-Request-Id';
const REQUEST_ID = Symbol('observability:requestId');
/** A caller's `X-Request-Id` is kept when it is a plain token; anything else gets a fresh id. */
const ACCEPTABLE_REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;
const MAX_FIELD = 128;
const requests = new AsyncLocalStorage();
/** The request id of `req`: the caller's `X-Request-Id` when acceptable, else a new UUID; echoed in the answer. */
export function assignRequestId(req, res) {
    const tagged = req;
    if (tagged[REQUEST_ID])
        return tagged[REQUEST_ID];
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
    tagged[REQUEST_ID] = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    return id;
}
/** Request id and, for a body read by the MCP endpoint, its JSON-RPC id, method and target. */
export function requestLogFields(req) {
    const fields = { requestId: req[REQUEST_ID] };
    if (!req[MCP_BODY_READ])
        return fields;
    const traceId = mcpSpanContextOf(req)?.traceId;
    if (traceId)
        fields.traceId = traceId;
    const body = req.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body))
        return fields;
    const params = body.params !== null && typeof body.params === 'object' ? body.params : {};
    if (typeof body.id === 'string')
        fields.rpcId = clip(body.id);
    else if (typeof body.id === 'number')
        fields.rpcId = body.id;
    if (typeof body.method === 'string')
        fields.rpcMethod = clip(body.method);
    const target = body.method === 'resources/read' ? params.uri : body.method === 'tools/call' || body.method === 'prompts/get' ? params.name : undefined;
    if (typeof target === 'string')
        fields.tool = clip(target);
    return fields;
}
/** The fields of the request being served, for log lines written while serving it. */
export function currentRequestLogFields() {
    const req = requests.getStore();
    return req ? requestLogFields(req) : undefined;
}
/**
 * Express middleware mounted ahead of everything else (the MCP body reader included): gives
 * each request its id and writes one access line when the answer is done, also for requests the
 * body reader refused (413, 415, 408, …). Never logs headers, query strings or bodies.
 */
export function requestLogMiddleware() {
    const logger = new Logger('HTTP');
    return (req, res, next) => {
        const started = performance.now();
        assignRequestId(req, res);
        res.once('close', () => {
            const status = res.writableFinished ? res.statusCode : 0;
            if (!Logger.isLevelEnabled(status >= 500 ? 'warn' : 'log'))
                return;
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
            if (status >= 500)
                logger.warn(line, fields);
            else
                logger.log(line, fields);
        });
        next();
    };
}
/**
 * Nest middleware (after the body parsers): runs the rest of the request with it in scope, so
 * that any line logged while serving it carries its request id and JSON-RPC fields.
 */
let RequestLogContextMiddleware = class RequestLogContextMiddleware {
    use(req, res, next) {
        assignRequestId(req, res);
        requests.run(req, next);
    }
};
RequestLogContextMiddleware = __decorate([
    Injectable()
], RequestLogContextMiddleware);
export { RequestLogContextMiddleware };
function clip(value, max = MAX_FIELD) {
    return value.length > max ? `${value.slice(0, max)}…` : value;
}
//# sourceMappingURL=request-log.js.map