var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Catch } from '@nestjs/common';
import { DatabaseUnavailableException } from '../database/database-unavailable.js';
/**
 * REST side of a database outage: `503` with `Retry-After` in the header (not in the body).
 * The MCP endpoint answers the same through its own exception filter (HTTP 503, a JSON-RPC error).
 */
let DatabaseUnavailableFilter = class DatabaseUnavailableFilter {
    catch(exception, host) {
        const res = host.switchToHttp().getResponse();
        if (res.headersSent)
            return;
        const { headers, ...body } = exception.getResponse();
        res.set({ ...headers, 'Cache-Control': 'no-store' }).status(exception.getStatus()).json(body);
    }
};
DatabaseUnavailableFilter = __decorate([
    Catch(DatabaseUnavailableException)
], DatabaseUnavailableFilter);
export { DatabaseUnavailableFilter };
//# sourceMappingURL=database-unavailable.filter.js.map