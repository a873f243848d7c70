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
export async function appsOnOneDatabase() {
    const database = await createTestDatabase();
    process.env.DATABASE_URL = database.url;
    let TestAppModule = class TestAppModule {
    };
    TestAppModule = __decorate([
        Module({ imports: [AppModule] })
    ], TestAppModule);
    const apps = [];
    const start = async (env = {}) => {
        const app = await withEnv(env, () => startTestApp(TestAppModule));
        if (!apps.length)
            await seedDemo(app.app.get(PrismaService));
        apps.push(app);
        return app;
    };
    const first = () => {
        if (!apps.length)
            throw new Error('start() an instance first');
        return apps[0].app;
    };
    return {
        start,
        prisma: () => first().get(PrismaService),
        token: async (request = {}) => (await RequestContext.run({ channel: 'system' }, () => first()
            .get(PersonalTokenService)
            .mint({ email: 'admin@demo.test', scopes: ['billing:read', 'billing:write', 'billing:admin'], workspaceSlug: 'demo', ...request }))).token,
        close: async () => {
            for (const app of apps.reverse())
                await app.close();
            await database.close();
        },
    };
}
/** Runs `work` with `env` applied to process.env, then puts the previous values back. */
export async function withEnv(env, work) {
    const previous = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
    const apply = (values) => {
        for (const [name, value] of Object.entries(values)) {
            if (value === undefined)
                delete process.env[name];
            else
                process.env[name] = value;
        }
    };
    apply(env);
    try {
        return await work();
    }
    finally {
        apply(previous);
    }
}
//# sourceMappingURL=apps-on-one-database.js.map