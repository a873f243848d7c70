// @nest-mcp/core: what an application writes against. Declaring capabilities on its providers and
// controllers, configuring the module, answering from a handler, the REST side of the same
// handlers, long work and announcements. What an adapter or an extension point's implementation
// needs (contracts, tokens, in-process defaults, the dispatcher) is in '@nest-mcp/core/extensions';
// what a test needs, in '@nest-mcp/core/testing'. Every name is listed in api-report.md.

// The module and its options; the transport, mounted in main.ts before listen().
export { McpModule } from './mcp.module.js';
export { useMcpTransport, type McpTransportHooks } from './transport/use-mcp-transport.js';
export type { AuthenticateBeforeRead } from './transport/json-body.reader.js';
export type { McpConfirmationMode, McpModuleOptions, McpStreamOptions, McpTaskOptions } from './options/mcp-options.interface.js';
export type { McpExtensionOptions } from './extension-points/mcp-extension.types.js';

// Declaring capabilities.
export { McpTool } from './decorators/mcp-tool.decorator.js';
export { McpResource } from './decorators/mcp-resource.decorator.js';
export { McpPrompt } from './decorators/mcp-prompt.decorator.js';
export { McpCompletion } from './decorators/mcp-completion.decorator.js';
export { McpCtx } from './decorators/mcp-ctx.decorator.js';
export { RequiredScopes } from './decorators/required-scopes.decorator.js';
export { McpHeader } from './decorators/mcp-header.decorator.js';
export { McpRequestGuard } from './decorators/mcp-request-guard.decorator.js';
export { McpSkill, type McpSkillOptions } from './skills/mcp-skill.decorator.js';
export type {
  McpCompletionOptions,
  McpIcon,
  McpPromptOptions,
  McpResourceOptions,
  McpTaskSupport,
  McpToolAnnotations,
  McpToolOptions,
} from './options/mcp-decorator.options.js';
export type { McpCompletionRequest } from './handlers/completion.handler.js';
export type { McpInputJsonSchema } from './schema/raw-json-schema.js';
export type { McpToolVisibility, McpViewCsp, McpViewOptions } from './options/mcp-view.options.js';

// Inside a handler or a guard: the call, the answer, the errors.
export { MCP_CONTEXT_TYPE, McpExecutionContext } from './invocation/mcp-execution-context.js';
export type { McpInvocation } from './invocation/mcp-invocation.js';
export { ToolReply } from './tool-results/tool-reply.js';
export type { McpResourceLink } from './tool-results/resource-links.js';
export type { ToolApproval, ToolEnvelope, ToolError, ToolSafety, ToolStatus } from './tool-results/tool-result.envelope.js';
export { McpErrorCode } from './protocol/mcp-error-codes.js';
export { McpProtocolError } from './protocol/mcp-protocol.error.js';
export { McpInsufficientScopeException } from './access/scope-challenge.js';
export { McpRequestState } from './multi-round/request-state.js';
export { acceptedContent, canElicitForm, inputRequired, inputResponse, isInputRequiredResult } from './multi-round/input-required.js';

// The REST side of the same handlers.
export { McpRestModule } from './rest/mcp-rest.module.js';
export { McpRestResultInterceptor } from './rest/mcp-rest-result.interceptor.js';
export { McpRestScopeGuard } from './rest/mcp-rest-scope.guard.js';
export { McpRestValidationPipe, mcpRestValidationPipe, restValidationException } from './rest/mcp-rest-validation.pipe.js';
export { namedArgumentPipe } from './rest/named-argument.pipe.js';
export { isRestRequestContext } from './rest/rest-request-context.js';

// Long work, and telling subscribers a resource changed.
export { McpTasks, type McpJobView } from './tasks/mcp-tasks.service.js';
export { McpResourceUpdates } from './streams/mcp-resource-updates.js';
