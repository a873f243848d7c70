var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { AppModule } from '../../src/app.module.js';
import { RequestContext } from '../../src/context/request-context.js';
import { seedDemo } from '../../src/database/demo-seed.js';
import { PrismaService } from '../../src/database/prisma.service.js';
import { PersonalTokenService } from '../../src/identity/personal-token.service.js';
import { createTestDatabase } from './test-database.js';
import { startTestApp } from './test-app.js';
/**
 * The real application (optionally with test-only modules) on its own migrated database: a
 * fresh database on the PostgreSQL of DATABASE_URL, or an embedded one when it is unset.
 */
export async function startBillingApp(...extra) {
    const database = await createTestDatabase();
    process.env.DATABASE_URL = database.url;
    let TestAppModule = class TestAppModule {
    };
    TestAppModule = __decorate([
        Module({ imports: [AppModule, ...extra] })
    ], TestAppModule);
    const t = await startTestApp(TestAppModule);
    const prisma = t.app.get(PrismaService);
    await seedDemo(prisma);
    const tokens = t.app.get(PersonalTokenService);
    return {
        ...t,
        prisma,
        token: async (request = {}) => (await RequestContext.run({ channel: 'system' }, () => tokens.mint({
            email: 'admin@demo.test',
            scopes: ['billing:read', 'billing:write', 'billing:admin'],
            workspaceSlug: 'demo',
            ...request,
        }))).token,
        close: async () => {
            await t.close();
            await database.close();
        },
    };
}
export function bearer(token) {
    return { authorization: `Bearer ${token}` };
}
//# sourceMappingURL=billing-app.js.map