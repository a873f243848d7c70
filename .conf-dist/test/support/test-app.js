import { NestFactory } from '@nestjs/core';
import { configureApp } from '../../src/app.setup.js';
/** Boots a real Nest application on a random loopback port, configured as `main.ts` configures it. */
export async function startTestApp(module, path = '/mcp') {
    const app = await NestFactory.create(module, { logger: ['error'] });
    configureApp(app);
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address();
    const baseUrl = `http://127.0.0.1:${address.port}`;
    return { app, baseUrl, mcpUrl: `${baseUrl}${path}`, close: () => app.close() };
}
//# sourceMappingURL=test-app.js.map