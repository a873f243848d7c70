var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Injectable } from '@nestjs/common';
/**
 * Whether this process is shutting down. Set first thing on SIGTERM (see `graceful-shutdown.ts`),
 * so readiness answers 503 at once and load balancers stop sending new work here.
 */
let ShutdownState = class ShutdownState {
    startedAt;
    get shuttingDown() {
        return this.startedAt !== undefined;
    }
    begin() {
        this.startedAt ??= Date.now();
    }
};
ShutdownState = __decorate([
    Injectable()
], ShutdownState);
export { ShutdownState };
//# sourceMappingURL=shutdown.state.js.map