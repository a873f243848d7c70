import { Module } from '@nestjs/common';
import { APP_GUARD, APP_PIPE } from '@nestjs/core';
import { McpRestScopeGuard } from './mcp-rest-scope.guard.js';
import { McpRestValidationPipe } from './mcp-rest-validation.pipe.js';

/**
 * The REST half of the decorators, opt-in: import it beside `McpModule.forRoot()` and the REST
 * routes that are tools (or resources, prompts, or carry `@RequiredScopes()`) get
 * - their `scopes` enforced by the application's access policy (`McpRestScopeGuard`, a global
 *   guard): the same decision, and the same refusal, as over MCP;
 * - their DTOs validated as tool arguments are (`McpRestValidationPipe`, a global pipe): unknown
 *   properties refused per `forbidUnknownArguments`, input transformed, a 400 naming each field.
 *
 * For an application with neither; one that has its own scope guard and `ValidationPipe` keeps
 * them. Global guards run in the order their modules are imported: import the module that
 * authenticates (and sets what the policy reads on the request) before this one.
 */
@Module({
  providers: [
    { provide: APP_GUARD, useClass: McpRestScopeGuard },
    { provide: APP_PIPE, useClass: McpRestValidationPipe },
  ],
})
export class McpRestModule {}
