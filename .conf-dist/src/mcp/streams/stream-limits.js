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
import { MCP_OPTIONS } from '../mcp.constants.js';
/**
 * Bounds the SSE streams this process holds open (`maxStreams`) and those of one caller
 * (`maxStreamsPerCaller`): an open stream holds a socket and memory for as long as the client
 * likes. Counted per process, where the sockets are.
 */
let StreamLimits = class StreamLimits {
    options;
    total = 0;
    byCaller = new Map();
    constructor(options) {
        this.options = options;
    }
    /** A release function, or undefined when a limit is reached (the caller answers without a stream). */
    acquire(callerKey) {
        const limits = this.options.streams;
        const mine = this.byCaller.get(callerKey) ?? 0;
        if (this.total >= limits.maxStreams || mine >= limits.maxStreamsPerCaller)
            return undefined;
        this.total++;
        this.byCaller.set(callerKey, mine + 1);
        let released = false;
        return () => {
            if (released)
                return;
            released = true;
            this.total--;
            const left = (this.byCaller.get(callerKey) ?? 1) - 1;
            if (left > 0)
                this.byCaller.set(callerKey, left);
            else
                this.byCaller.delete(callerKey);
        };
    }
    get open() {
        return this.total;
    }
};
StreamLimits = __decorate([
    Injectable(),
    __param(0, Inject(MCP_OPTIONS)),
    __metadata("design:paramtypes", [Object])
], StreamLimits);
export { StreamLimits };
//# sourceMappingURL=stream-limits.js.map