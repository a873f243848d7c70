export * from './decorators/mcp-tool.decorator.js';
export * from './decorators/mcp-resource.decorator.js';
export * from './decorators/mcp-prompt.decorator.js';
export * from './decorators/mcp-completion.decorator.js';
export * from './decorators/mcp-ctx.decorator.js';
export * from './decorators/required-scopes.decorator.js';
export { McpRequestGuard } from './decorators/mcp-request-guard.decorator.js';
export type * from './decorators/mcp-decorator.options.js';
export type * from './options/mcp-options.interface.js';
export type { McpCompletionRequest } from './handlers/completion.handler.js';
export * from './protocol/protocol.constants.js';
export * from './decorators/mcp-metadata.keys.js';
export * from './options/mcp-options.constants.js';
export * from './invocation/mcp-execution-context.js';
export * from './mcp.module.js';
export type { McpExtension, McpExtensionOptions, McpExtensionPointName } from './extension-points/mcp-extension.types.js';
export type * from './invocation/mcp-invocation.js';
export { McpErrorCode } from './protocol/mcp-error-codes.js';
export { McpProtocolError } from './protocol/mcp-protocol.error.js';
export { McpRegistry } from './registry/mcp.registry.js';
export { MCP_CALL_HOOK, PassThroughCallHook, type McpCall, type McpCallHook, type McpCallOutcome } from './contracts/call-hook.js';
export { MCP_ACCESS_POLICY, AllowAllAccessPolicy, type McpAccessPolicy, type McpCapability } from './contracts/access-policy.js';
export type * from './tool-results/tool-result.envelope.js';
export { ToolReply } from './tool-results/tool-reply.js';
export { dtoToJsonSchema } from './schema/dto-json-schema.factory.js';
export type { JsonSchema } from './schema/json-schema.types.js';
export { useMcpTransport, type McpTransportHooks } from './transport/use-mcp-transport.js';
export { createHostCheck, type HostCheckSettings } from './transport/request-origin.check.js';
export { createRestBodyReader, type RestBodyRules } from './transport/rest-body.reader.js';
export { attachMcpMessage, mcpMessageOf, mcpTargetOf, type McpRequestMessage } from './transport/mcp-request-message.js';
export type { InboundMessage } from './protocol/json-rpc-message.js';
export { MAX_JSON_DEPTH, type AuthenticateBeforeRead } from './transport/json-body.reader.js';
export { McpRequestState } from './multi-round/request-state.js';
export { MCP_REQUEST_STATE_STORE, InMemoryRequestStateStore, type McpRequestStateStore } from './contracts/request-state-store.js';
export { MCP_CLIENT_INFO_STORE, InMemoryClientInfoStore, type McpClientInfoStore } from './contracts/client-info-store.js';
export { acceptedContent, canElicitForm, inputRequired, inputResponse, isInputRequiredResult } from './multi-round/input-required.js';
export { InMemoryIdempotencyStore } from './idempotency/in-memory-idempotency.store.js';
export {
  MCP_IDEMPOTENCY_STORE,
  type IdempotencyClaim,
  type IdempotentCall,
  type McpIdempotencyStore,
} from './contracts/idempotency-store.js';
export { MCP_APPROVAL_LINKS, type ApprovalOutcome, type ApprovalRequest, type McpApprovalLinks } from './contracts/approval-links.js';
export { McpConfirmationInterceptor, CONFIRM_INPUT } from './confirmation/confirmation.interceptor.js';
export { personFacingSummary } from './confirmation/person-facing-summary.js';
export { argumentsHash, canonicalJson } from './calls/arguments-hash.js';
export { McpDispatcher } from './server/mcp.dispatcher.js';
export * from './contracts/stream-backends.js';
export * from './invocation/mcp-session.js';
export { eventId, parseEventId, sessionOfStream } from './streams/stream-ids.js';
export { InMemorySessionStore } from './streams/in-process/in-memory-session.store.js';
export { InMemoryEventStore } from './streams/in-process/in-memory-event.store.js';
export { InProcessMessageBus } from './streams/in-process/in-process-message.bus.js';
export { MessageBusListeners } from './streams/message-bus-listeners.js';
export { McpResourceUpdates } from './streams/mcp-resource-updates.js';
export {
  MCP_TASK_STORE,
  TERMINAL_TASK_STATUSES,
  type McpTask,
  type McpTaskError,
  type McpTaskPatch,
  type McpTaskStatus,
  type McpTaskStore,
} from './contracts/task-store.js';
export {
  MCP_TASK_CALLERS,
  MCP_TASK_QUEUE,
  McpTaskRefused,
  type McpTaskCallers,
  type McpTaskQueue,
  type McpTaskRun,
  type McpTaskRunOutcome,
} from './contracts/task-queue.js';
export { McpTasks, jobView, type McpJobView } from './tasks/mcp-tasks.service.js';
export { TASKS_EXTENSION } from './tasks/task-wire.js';
export { InMemoryTaskStore } from './tasks/in-process/in-memory-task.store.js';
export { McpSpanAttribute, mcpSpanContextOf, setMcpSpanAttributes } from './server/mcp-tracing.js';
export type { McpApprovedCall } from './confirmation/mcp-approved-call.js';
export { McpRestModule } from './rest/mcp-rest.module.js';
export { McpRestScopeGuard } from './rest/mcp-rest-scope.guard.js';
export { McpRestValidationPipe, mcpRestValidationPipe, restValidationException } from './rest/mcp-rest-validation.pipe.js';
export { namedArgumentPipe } from './rest/named-argument.pipe.js';
export { isRestRequestContext } from './rest/rest-request-context.js';
export { McpInsufficientScopeException } from './access/scope-challenge.js';
