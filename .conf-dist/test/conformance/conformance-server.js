var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { configureApp } from '../../src/app.setup.js';
import { McpModule } from '../../src/mcp/index.js';
import { ConformanceFixtureModule } from './conformance-fixture.module.js';
/**
 * Boots the conformance fixture as a real application, configured as main.ts configures ours
 * (configureApp: useMcpTransport, the global ValidationPipe, shutdown hooks). Loopback only
 * (the suite's DNS-rebinding scenario needs a localhost URL), port from PORT (0 = any free port).
 * scripts/conformance.sh waits for the "listening on" line and reads the URL from it.
 */
let ConformanceAppModule = class ConformanceAppModule {
};
ConformanceAppModule = __decorate([
    Module({
        imports: [McpModule.forRoot({ serverInfo: { name: 'nest-mcp-conformance', version: '1.0.0' }, streams: true }), ConformanceFixtureModule],
    })
], ConformanceAppModule);
async function main() {
    const app = await NestFactory.create(ConformanceAppModule, { logger: ['error', 'warn'] });
    configureApp(app);
    await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
    const { port } = app.getHttpServer().address();
    console.log(`listening on http://127.0.0.1:${port}/mcp`);
}
main().catch((error) => {
    console.error(error);
    process.exit(1);
});
//# sourceMappingURL=conformance-server.js.map