var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, HttpAdapterHost } from '@nestjs/core';
import { MCP_ACCESS_POLICY } from '../mcp/index.js';
import { AuthChallengeFilter } from './auth-challenge.filter.js';
import { AuthenticationGuard } from './authentication.guard.js';
import { AuthenticationService } from './authentication.service.js';
import { boundBaseUrl } from './bound-url.js';
import { IDENTITY_CONFIG, identityConfigFromEnv } from './identity.config.js';
import { JwtTokenVerifier } from './jwt-token.verifier.js';
import { IdentityChangeListener } from './identity-change.listener.js';
import { PersonalTokenService } from './personal-token.service.js';
import { ProtectedResourceController } from './protected-resource.controller.js';
import { ScopeGuard } from './scope.guard.js';
import { ScopePolicy } from './scope.policy.js';
import { TokenCache, tokenCacheOptionsFromEnv } from './token-cache.js';
import { WorkspaceGuard } from './workspace.guard.js';
import { WorkspaceResolver } from './workspace.resolver.js';
import { rawEnvironment } from '../config/environment.js';
/**
 * Who is calling and what they may do: token authentication (personal tokens, external JWTs),
 * workspace resolution and the scope policy, for REST routes and MCP alike. Global so that the
 * MCP layer finds the policy under `MCP_ACCESS_POLICY`.
 */
let IdentityModule = class IdentityModule {
};
IdentityModule = __decorate([
    Global(),
    Module({
        controllers: [ProtectedResourceController],
        providers: [
            {
                provide: IDENTITY_CONFIG,
                // Without PUBLIC_URL, the public URL is the address the server listens on (PORT=0 included).
                useFactory: (adapter) => identityConfigFromEnv(rawEnvironment(), () => boundBaseUrl(adapter.httpAdapter?.getHttpServer()?.address())),
                inject: [HttpAdapterHost],
            },
            { provide: TokenCache, useFactory: () => new TokenCache(tokenCacheOptionsFromEnv()) },
            IdentityChangeListener,
            PersonalTokenService,
            JwtTokenVerifier,
            AuthenticationService,
            WorkspaceResolver,
            ScopePolicy,
            { provide: MCP_ACCESS_POLICY, useExisting: ScopePolicy },
            // Order matters: who is calling, then in which workspace, then may they do this there.
            { provide: APP_GUARD, useClass: AuthenticationGuard },
            { provide: APP_GUARD, useClass: WorkspaceGuard },
            { provide: APP_GUARD, useClass: ScopeGuard },
            { provide: APP_FILTER, useClass: AuthChallengeFilter },
        ],
        exports: [PersonalTokenService, ScopePolicy, WorkspaceResolver, MCP_ACCESS_POLICY, IDENTITY_CONFIG],
    })
], IdentityModule);
export { IdentityModule };
//# sourceMappingURL=identity.module.js.map