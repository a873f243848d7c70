import { Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { McpRestResultInterceptor } from './mcp-rest-result.interceptor.js';
import { McpRestScopeGuard } from './mcp-rest-scope.guard.js';
import { McpRestValidationPipe } from './mcp-rest-validation.pipe.js';

/**
 * The REST half of the decorators, opt-in: import it beside `McpModule.forRoot()` and the REST
 * routes that are tools (or resources, prompts, or carry `@RequiredScopes()`) get
 * - their `scopes` enforced by the application's access policy (`McpRestScopeGuard`, a global
 *   guard): the same decision, and the same refusal, as over MCP;
 * - their DTOs validated as tool arguments are (`McpRestValidationPipe`, a global pipe): unknown
 *   properties refused per `forbidUnknownArguments`, input transformed, a 400 naming each field;
 * - their JSON bodies written by the rules their MCP results follow (`McpRestResultInterceptor`, a
 *   global interceptor): a `BigInt` as a string, a `Map` as an object, a `Set` as an array.
 *
 * For an application with neither; one that has its own scope guard and `ValidationPipe` keeps
 * them, and adds `app.useGlobalInterceptors(new McpRestResultInterceptor())`. Global guards run
 * in the order their modules are imported: import the module that authenticates (and sets what
 * the policy reads on the request) before this one.
 */
@Module({
  providers: [
    { provide: APP_GUARD, useClass: McpRestScopeGuard },
    { provide: APP_PIPE, useClass: McpRestValidationPipe },
    { provide: APP_INTERCEPTOR, useClass: McpRestResultInterceptor },
  ],
})
export class McpRestModule {}
