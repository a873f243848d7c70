import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { McpAuthenticator, McpAuthModule } from '@nest-mcp/auth';
import { IDENTITY_CONFIG, IDENTITY_SETTINGS, identityConfig, mcpAuthOptions, type IdentitySettings } from './identity.config.js';
import { ExternalIdentityService } from './external-identity.service.js';
import { IdentityChangeListener } from './identity-change.listener.js';
import { PersonalTokenService } from './personal-token.service.js';
import { assertRoleScopes, declaredScopes, ROLE_SCOPES, type RoleScopes } from './role-scopes.js';
import { ScopeGuard } from './scope.guard.js';
import { ScopePolicy } from './scope.policy.js';
import { PostgresStepUpStore } from './step-up.store.js';
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
    // Without PUBLIC_URL, the public URL is the address the server listens on (PORT=0 included), as @nest-mcp/auth
    // names it; asked when first read (the authenticator needs this module's user resolver, which reads this config).
    useFactory: (settings: IdentitySettings, modules: ModuleRef) =>
      identityConfig(settings, () => modules.get(McpAuthenticator, { strict: false }).publicUrl),
    inject: [IDENTITY_SETTINGS, ModuleRef],
  },
  { provide: TokenCache, useFactory: (options: TokenCacheOptions) => new TokenCache(options), inject: [TOKEN_CACHE_OPTIONS] },
  IdentityChangeListener,
  PersonalTokenService,
  ExternalIdentityService,
  WorkspaceResolver,
  ScopePolicy,
  WorkspaceGuard,
  ScopeGuard,
  WorkspaceToolsCheck,
  PostgresStepUpStore,
];

/**
 * Who is calling and what they may do. Bearer tokens, their 401 challenge and the protected-resource
 * metadata are `@nest-mcp/auth`'s (`McpAuthModule`, configured from AUTH_* here); this app adds its
 * own credentials (personal tokens, `PersonalTokenService`), who a JWT's subject is
 * (`ExternalIdentityService`), the workspace a request acts in and the scope policy narrowed to the
 * person's role there (`ScopePolicy`, the MCP layer's `accessPolicy`). Global because every module's
 * routes are guarded by it. The application says which scopes exist and what each role may do:
 * `IdentityModule.forRoot({ roleScopes })`.
 */
@Module({})
export class IdentityModule {
  static forRoot(options: IdentityModuleOptions): DynamicModule {
    assertRoleScopes(options.roleScopes);
    return {
      module: IdentityModule,
      global: true,
      imports: [
        McpAuthModule.forRootAsync({
          inject: [IDENTITY_SETTINGS],
          useFactory: (settings: IdentitySettings) => mcpAuthOptions(settings, declaredScopes(options.roleScopes)),
          users: { useExisting: ExternalIdentityService },
          tokenVerifiers: [{ useExisting: PersonalTokenService }],
          stepUps: { useExisting: PostgresStepUpStore },
          // The global guards are registered in their order by app.guards.ts.
          registerGuard: false,
        }),
      ],
      providers: [{ provide: ROLE_SCOPES, useValue: options.roleScopes }, ...PROVIDERS],
      exports: [
        PersonalTokenService,
        ExternalIdentityService,
        PostgresStepUpStore,
        ScopePolicy,
        WorkspaceResolver,
        IDENTITY_CONFIG,
        ROLE_SCOPES,
        WorkspaceGuard,
        ScopeGuard,
      ],
    };
  }
}
