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
import { Inject, Injectable } from '@nestjs/common';
import { McpRegistry } from '../discovery/mcp.registry.js';
import { MCP_OPTIONS } from '../mcp.constants.js';
import { InvocationBuilder } from '../multi-round/multi-round-call.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { paginate } from '../server/list-pagination.js';
import { CapabilityAccess } from './capability-access.js';
import { toolErrorsFromException } from './tool-error.mapper.js';
/** `resources/list`, `resources/templates/list` and `resources/read` (SPEC §5). */
let ResourcesHandler = class ResourcesHandler {
    registry;
    access;
    invocations;
    options;
    constructor(registry, access, invocations, options) {
        this.registry = registry;
        this.access = access;
        this.invocations = invocations;
        this.options = options;
    }
    list(params, context) {
        const visible = this.access.visible('resource', this.registry.resources, context);
        const { page, nextCursor } = paginate(visible, params.cursor, this.options.pageSize);
        return { resources: page.map((e) => e.definition), ...(nextCursor ? { nextCursor } : {}) };
    }
    listTemplates(params, context) {
        const visible = this.access.visible('resource', this.registry.templates, context);
        const { page, nextCursor } = paginate(visible, params.cursor, this.options.pageSize);
        return { resourceTemplates: page.map((e) => e.definition), ...(nextCursor ? { nextCursor } : {}) };
    }
    async read(params, context) {
        const uri = params.uri;
        if (typeof uri !== 'string' || !uri)
            throw McpProtocolError.invalidParams('Invalid params: "uri" is required');
        const fixed = this.registry.resource(uri);
        const matched = fixed ? undefined : this.registry.matchTemplate(uri);
        const entry = fixed ?? matched?.entry;
        if (!entry)
            throw McpProtocolError.invalidParams(`Unknown resource: ${uri}`, { uri });
        this.access.assert('resource', entry, context);
        let output;
        try {
            const invocation = await this.invocations.build('resource', entry.name, {}, context, matched?.variables ?? {});
            invocation.uri = uri;
            output = await entry.handler(invocation);
        }
        catch (exception) {
            // A template that matched but names nothing that exists is an unknown resource, not a fault.
            const errors = toolErrorsFromException(exception);
            if (!errors)
                throw exception;
            throw McpProtocolError.invalidParams(`Resource ${uri}: ${errors.map((e) => e.message).join('; ')}`, { uri });
        }
        return { contents: toContents(uri, output, entry.definition.mimeType) };
    }
};
ResourcesHandler = __decorate([
    Injectable(),
    __param(3, Inject(MCP_OPTIONS)),
    __metadata("design:paramtypes", [McpRegistry,
        CapabilityAccess,
        InvocationBuilder, Object])
], ResourcesHandler);
export { ResourcesHandler };
/**
 * What a resource method may return: a full `{ contents }`, a string (text), bytes (blob), or
 * any other value (served as JSON).
 */
function toContents(uri, output, mimeType) {
    if (typeof output === 'object' && output !== null && Array.isArray(output.contents)) {
        return output.contents;
    }
    if (typeof output === 'string')
        return [{ uri, mimeType: mimeType ?? 'text/plain', text: output }];
    if (output instanceof Uint8Array) {
        return [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob: Buffer.from(output).toString('base64') }];
    }
    return [{ uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(output) }];
}
//# sourceMappingURL=resources.handler.js.map