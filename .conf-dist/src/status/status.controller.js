var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { McpTool } from '../mcp/index.js';
import { ServerStatusDto } from './status.dto.js';
let StatusController = class StatusController {
    status() {
        return { status: 'ok', time: new Date().toISOString(), uptimeSeconds: Math.round(process.uptime()) };
    }
};
__decorate([
    Get(),
    ApiOkResponse({ type: ServerStatusDto }),
    McpTool({
        name: 'server_status',
        title: 'Server status',
        description: 'When to use: to check that the billing backend is reachable and what time it keeps. ' +
            'Never use for: business data. Side effects: none. Success criteria: status is "ok". ' +
            'Fallback: if it fails, tell the user the backend is unreachable.',
        annotations: { readOnlyHint: true, idempotentHint: true },
        output: ServerStatusDto,
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", ServerStatusDto)
], StatusController.prototype, "status", null);
StatusController = __decorate([
    ApiTags('status'),
    Controller('v1/status')
], StatusController);
export { StatusController };
//# sourceMappingURL=status.controller.js.map