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
import { Inject, Injectable, Optional } from '@nestjs/common';
import { MCP_ACCESS_POLICY } from '../server/mcp-access.policy.js';
/** Applies the configured access policy (allow-all when none is provided). */
let CapabilityAccess = class CapabilityAccess {
    policy;
    constructor(policy) {
        this.policy = policy;
    }
    visible(kind, entries, context) {
        const policy = this.policy;
        if (!policy)
            return entries;
        return entries.filter((entry) => policy.canUse({ kind, name: entry.name, scopes: entry.scopes }, context));
    }
    /** Throws the policy's refusal when the caller may not use the capability. */
    assert(kind, entry, context) {
        const capability = { kind, name: entry.name, scopes: entry.scopes };
        if (this.policy && !this.policy.canUse(capability, context))
            throw this.policy.refuse(capability, context);
    }
};
CapabilityAccess = __decorate([
    Injectable(),
    __param(0, Optional()),
    __param(0, Inject(MCP_ACCESS_POLICY)),
    __metadata("design:paramtypes", [Object])
], CapabilityAccess);
export { CapabilityAccess };
//# sourceMappingURL=capability-access.js.map