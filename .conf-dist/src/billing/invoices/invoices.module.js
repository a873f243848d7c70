var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { InvoicesController } from './invoices.controller.js';
import { InvoicesService } from './invoices.service.js';
/**
 * Invoices: REST routes and the MCP tools that dispatch to them. PrismaService comes from the
 * global DatabaseModule; customers are read through Prisma (importing BillingModule would be a cycle).
 */
let InvoicesModule = class InvoicesModule {
};
InvoicesModule = __decorate([
    Module({
        controllers: [InvoicesController],
        providers: [InvoicesService],
        exports: [InvoicesService],
    })
], InvoicesModule);
export { InvoicesModule };
//# sourceMappingURL=invoices.module.js.map