var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { HttpException, Injectable, Logger } from '@nestjs/common';
import { RequestContext } from '../context/request-context.js';
import { PrismaService } from '../database/prisma.service.js';
import { McpProtocolError } from '../mcp/index.js';
import { setMcpSpanAttributes } from '../mcp/server/mcp-tracing.js';
import { AuditService } from './audit.service.js';
import { redactArguments } from './redact.js';
/** A tool result with `isError`: its writes must not stay, but the client still gets it. */
class FailedResult {
    result;
    constructor(result) {
        this.result = result;
    }
}
const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;
/**
 * Every MCP capability call that may write runs in one database transaction with its audit
 * event: the event commits with the call's writes, and a call that fails (an `isError` result, a
 * refusal, a fault) rolls its writes back and is audited on its own. So there is never a write
 * without its audit, nor an audit of a write that did not happen. Reads (read-only tools,
 * resources, prompts) are audited too, without a transaction.
 */
let AuditCallHook = class AuditCallHook {
    prisma;
    audit;
    logger = new Logger('Audit');
    constructor(prisma, audit) {
        this.prisma = prisma;
        this.audit = audit;
    }
    async around(call, proceed) {
        const started = performance.now();
        const event = (outcome, errorCode) => this.event(call, outcome, errorCode, started);
        try {
            if (call.readOnly) {
                // A read writes nothing that its audit row must commit with: no transaction to pay for.
                const result = await proceed();
                if (isErrorResult(result))
                    throw new FailedResult(result);
                await this.audit.recordBatched(event('success'));
                return result;
            }
            // Inside an already open transaction (a call replayed by an approval) this is a savepoint:
            // a failing call rolls back its own writes and is audited in the outer transaction.
            return await this.prisma.transaction(async () => {
                const result = await proceed();
                if (isErrorResult(result))
                    throw new FailedResult(result);
                await this.audit.record(event('success'));
                return result;
            }, { savepoint: true });
        }
        catch (failure) {
            if (failure instanceof FailedResult) {
                await this.audit.record(event('failed', errorCodeOf(failure.result)));
                return failure.result;
            }
            const [outcome, code] = classify(failure);
            await this.audit.record(event(outcome, code)).catch((error) => this.logger.error(`Could not audit a failed ${call.method}: ${error.message}`));
            throw failure;
        }
    }
    event(call, outcome, errorCode, started) {
        const state = RequestContext.current();
        if (state?.workspace)
            setMcpSpanAttributes({ 'app.workspace.id': state.workspace.id, 'app.workspace.slug': state.workspace.slug });
        const principal = state?.principal;
        const traceparent = call.context.meta.traceparent;
        return {
            workspaceId: state?.workspace?.id,
            userId: principal?.userId,
            tokenId: principal?.tokenId,
            clientName: call.context.clientInfo?.name,
            clientVersion: call.context.clientInfo?.version,
            method: call.method,
            target: call.target,
            arguments: call.arguments === undefined ? undefined : redactArguments(call.arguments),
            outcome,
            errorCode,
            durationMs: Math.round(performance.now() - started),
            traceId: typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent)?.[1] : undefined,
        };
    }
};
AuditCallHook = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [PrismaService,
        AuditService])
], AuditCallHook);
export { AuditCallHook };
function isErrorResult(result) {
    return typeof result === 'object' && result !== null && result.isError === true;
}
/** The first error code of the tool's JSON envelope, when it has one. */
function errorCodeOf(result) {
    const text = result.content?.find((c) => c.type === 'text')?.text;
    try {
        return text ? JSON.parse(text).errors?.[0]?.code : undefined;
    }
    catch {
        return undefined;
    }
}
function classify(failure) {
    if (failure instanceof McpProtocolError)
        return ['error', String(failure.code)];
    if (failure instanceof HttpException) {
        const status = failure.getStatus();
        return [status === 401 || status === 403 ? 'denied' : 'error', `http_${status}`];
    }
    return ['error', 'internal_error'];
}
//# sourceMappingURL=audit-call.hook.js.map