import { ConfigurableModuleBuilder, type Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { McpExtension } from '@nest-mcp/core/extensions';
import { McpAuthGuard } from './authentication/mcp-auth.guard.js';
import { MCP_AUTH_OPTIONS, type McpAuthOptions } from './options/mcp-auth.options.js';
import { InMemoryStepUpStore, MCP_AUTH_STEP_UPS, type McpStepUpStore } from './challenge/step-up-store.js';
import { resolveMcpAuthOptions } from './options/resolve-options.js';
import { MCP_AUTH_TOKEN_VERIFIERS, type McpTokenVerifier } from './tokens/token-verifier.js';
import { MCP_AUTH_USER_RESOLVER, type McpUserResolver } from './tokens/user-resolver.js';

/**
 * What shapes the module itself (providers and the global guard), beside the options in both
 * `forRoot()` and `forRootAsync()`: Nest needs providers before any options factory runs.
 */
export interface McpAuthModuleExtras {
  /** Who a verified JWT acts as in the application (`McpUserResolver`). Default: no user, the principal is the issuer and subject. */
  users?: McpExtension<McpUserResolver>;
  /** The application's own credentials (`McpTokenVerifier`), asked in this order before a token is taken for a JWT. */
  tokenVerifiers?: Array<McpExtension<McpTokenVerifier>>;
  /**
   * When each caller was last sent to step up (`McpStepUpStore`): shared across replicas, so that
   * a retry on any of them gets the plain refusal after a step-up that was not granted. Default:
   * in this process's memory.
   */
  stepUps?: McpExtension<McpStepUpStore>;
  /** Registers `McpAuthGuard` as a global guard (default true); false when the application orders its global guards itself. */
  registerGuard?: boolean;
}

const EXTRAS: McpAuthModuleExtras = { users: undefined, tokenVerifiers: undefined, stepUps: undefined, registerGuard: true };

export const {
  ConfigurableModuleClass: McpAuthConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_AUTH_MODULE_OPTIONS,
  OPTIONS_TYPE: MCP_AUTH_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MCP_AUTH_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpAuthOptions>()
  .setClassMethodName('forRoot')
  .setExtras<McpAuthModuleExtras>(EXTRAS, (definition, extras) => ({
    ...definition,
    // Global: guards, the access policy and controllers of any module read the authenticator.
    global: true,
    providers: [...(definition.providers ?? []), ...extensionProviders(extras)],
  }))
  .build();

function extensionProviders(extras: McpAuthModuleExtras): Provider[] {
  const verifiers = (extras.tokenVerifiers ?? []).map((extension, at) => ({
    provide: Symbol(`McpAuthModule tokenVerifiers[${at}]`),
    ...extension,
  })) as Array<Provider & { provide: symbol }>;
  return [
    {
      provide: MCP_AUTH_OPTIONS,
      useFactory: (options: McpAuthOptions) => resolveMcpAuthOptions(options, verifiers.length),
      inject: [MCP_AUTH_MODULE_OPTIONS],
    },
    ...verifiers,
    {
      provide: MCP_AUTH_TOKEN_VERIFIERS,
      useFactory: (...given: McpTokenVerifier[]) => given,
      inject: verifiers.map((verifier) => verifier.provide),
    },
    ...(extras.users ? [{ provide: MCP_AUTH_USER_RESOLVER, ...extras.users } as Provider] : []),
    { provide: MCP_AUTH_STEP_UPS, ...(extras.stepUps ?? { useFactory: () => new InMemoryStepUpStore() }) } as Provider,
    ...(extras.registerGuard === false ? [] : [{ provide: APP_GUARD, useExisting: McpAuthGuard }]),
  ];
}
