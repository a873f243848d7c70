import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AuthenticationGuard } from './authentication.guard.js';
import { AuthenticationService } from './authentication.service.js';
import { boundBaseUrl } from './bound-url.js';
import { IDENTITY_CONFIG, IDENTITY_SETTINGS, identityConfig, type IdentitySettings } from './identity.config.js';
import { ExternalIdentityService } from './external-identity.service.js';
import { JwtTokenVerifier } from './jwt-token.verifier.js';
import { IdentityChangeListener } from './identity-change.listener.js';
import { PersonalTokenService } from './personal-token.service.js';
import { assertRoleScopes, ROLE_SCOPES, type RoleScopes } from './role-scopes.js';
import { ProtectedResourceController } from './protected-resource.controller.js';
import { ScopeGuard } from './scope.guard.js';
import { ScopePolicy } from './scope.policy.js';
import { TOKEN_CACHE_OPTIONS, TokenCache, type TokenCacheOptions } from './token-cache.js';
import { WorkspaceGuard } from './workspace.guard.js';
import { WorkspaceResolver } from './workspace.resolver.js';
import { WorkspaceToolsCheck } from './workspace-tools.check.js';

export interface IdentityModuleOptions {
  /** What each workspace role may do; the scopes named here are the ones that exist. */
  roleScopes: RoleScopes;
}

/** The guards are provided here and registered, in their order, by the application (`app.guards.ts`). */
const PROVIDERS: Provider[] = [
  {
    provide: IDENTITY_CONFIG,
    // Without PUBLIC_URL, the public URL is the address the server listens on (PORT=0 included).
    useFactory: (settings: IdentitySettings, adapter: HttpAdapterHost) =>
      identityConfig(settings, () => boundBaseUrl(adapter.httpAdapter?.getHttpServer()?.address())),
    inject: [IDENTITY_SETTINGS, HttpAdapterHost],
  },
  { provide: TokenCache, useFactory: (options: TokenCacheOptions) => new TokenCache(options), inject: [TOKEN_CACHE_OPTIONS] },
  IdentityChangeListener,
  PersonalTokenService,
  JwtTokenVerifier,
  ExternalIdentityService,
  AuthenticationService,
  WorkspaceResolver,
  ScopePolicy,
  AuthenticationGuard,
  WorkspaceGuard,
  ScopeGuard,
  WorkspaceToolsCheck,
];

/**
 * Who is calling and what they may do: token authentication (personal tokens, external JWTs),
 * workspace resolution and the scope policy, for REST routes and MCP alike (`ScopePolicy` is the
 * MCP layer's `accessPolicy`). Global because every module's routes are guarded by it. The
 * application says which scopes exist and what each role may do: `IdentityModule.forRoot({ roleScopes })`.
 */
@Module({})
export class IdentityModule {
  static forRoot(options: IdentityModuleOptions): DynamicModule {
    assertRoleScopes(options.roleScopes);
    return {
      module: IdentityModule,
      global: true,
      controllers: [ProtectedResourceController],
      providers: [{ provide: ROLE_SCOPES, useValue: options.roleScopes }, ...PROVIDERS],
      exports: [
        PersonalTokenService,
        ScopePolicy,
        WorkspaceResolver,
        IDENTITY_CONFIG,
        ROLE_SCOPES,
        AuthenticationGuard,
        WorkspaceGuard,
        ScopeGuard,
      ],
    };
  }
}
