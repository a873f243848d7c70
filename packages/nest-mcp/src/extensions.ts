// @nest-mcp/core/extensions: for adapters and the implementations of McpModule's extension points
// (an access policy, a call hook, stores, task backends, approval links, stream backends): each
// contract with its injection token and in-process default, what those implementations read of a
// call (the invocation, the resolved options, the registry), and the transport's building blocks
// for an application that mounts the endpoint itself. Every name is listed in api-report.md.

// The resolved options, the extension points, the catalogue of capabilities.
export { MCP_OPTIONS, DEFAULT_SUPPORTED_VERSIONS } from './options/mcp-options.constants.js';
export type { ResolvedMcpOptions, ResolvedStreamOptions, ResolvedTaskOptions } from './options/mcp-options.interface.js';
export type { McpExtension, McpExtensionPointName } from './extension-points/mcp-extension.types.js';
export { McpRegistry } from './registry/mcp.registry.js';
export {
  MCP_COMPLETION_METADATA,
  MCP_PROMPT_METADATA,
  MCP_RESOURCE_METADATA,
  MCP_SCOPES_METADATA,
  MCP_TOOL_METADATA,
} from './decorators/mcp-metadata.keys.js';
export type { McpPromptMetadata, McpResourceMetadata, McpToolMetadata } from './options/mcp-decorator.options.js';
export { dtoToJsonSchema } from './schema/dto-json-schema.factory.js';
export { headerParametersOf, type McpHeaderParameter } from './schema/header-parameters.js';
export type { JsonSchema } from './schema/json-schema.types.js';

// What a call is, as the layer's stations and the extension points see it.
export type { InChatConfirmation, McpRequestContext, McpTargetKind, McpTaskRunContext } from './invocation/mcp-invocation.js';
export type { McpSession } from './invocation/mcp-session.js';
export {
  HANDSHAKE_DEFAULT_HEADER_VERSION,
  HEADER_METHOD,
  HEADER_NAME,
  HEADER_PROTOCOL_VERSION,
  STATELESS_VERSIONS,
} from './protocol/protocol.constants.js';

// Access, the call hook, approvals.
export { MCP_ACCESS_POLICY, AllowAllAccessPolicy, type McpAccessPolicy, type McpCapability } from './contracts/access-policy.js';
// The headers an HTTP exception asks for (its own `headers`, or `headers` in its response): a guard or filter of an
// adapter sets them on the answer as the layer's own filter does.
export { exceptionHeaders } from './access/scope-challenge.js';
export {
  MCP_CALL_HOOK,
  PassThroughCallHook,
  type McpCall,
  type McpCallHook,
  type McpCallOutcome,
  type McpTaskEnd,
} from './contracts/call-hook.js';
export { MCP_APPROVAL_LINKS, type ApprovalOutcome, type ApprovalRequest, type McpApprovalLinks } from './contracts/approval-links.js';
export type { McpApprovedCall } from './confirmation/mcp-approved-call.js';
export { McpDispatcher } from './server/mcp.dispatcher.js';
export { McpConfirmationInterceptor, CONFIRM_INPUT } from './confirmation/confirmation.interceptor.js';
export { personFacingSummary } from './confirmation/person-facing-summary.js';
export { McpApprovalViewSecrets } from './confirmation/approval-view-secrets.js';
export { APPROVAL_VIEW_META, type ApprovalViewMeta } from './confirmation/confirmation-view.js';
export { TOOL_ERROR_FIELDS, envelopeResult, envelopeSchema, safetyOf } from './tool-results/tool-result.envelope.js';

// Shared stores: idempotency keys, request state, client names.
export {
  MCP_IDEMPOTENCY_STORE,
  type IdempotencyClaim,
  type IdempotentCall,
  type McpIdempotencyStore,
} from './contracts/idempotency-store.js';
export { InMemoryIdempotencyStore } from './idempotency/in-memory-idempotency.store.js';
export { answerWithKey, type IdempotencyKeys, type KeyedOperation } from './idempotency/keyed-answer.js';
export { argumentsHash, canonicalJson } from './calls/arguments-hash.js';
export { MCP_REQUEST_STATE_STORE, InMemoryRequestStateStore, type McpRequestStateStore } from './contracts/request-state-store.js';
export { MCP_CLIENT_INFO_STORE, InMemoryClientInfoStore, type McpClientInfoStore } from './contracts/client-info-store.js';

// Tasks.
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
  type McpTaskCallOrigin,
  type McpTaskEnqueueOptions,
  type McpTaskQueue,
  type McpTaskQueueLimits,
  type McpTaskRun,
  type McpTaskRunOutcome,
} from './contracts/task-queue.js';
export { InMemoryTaskStore } from './tasks/in-process/in-memory-task.store.js';
export { jobView } from './tasks/mcp-tasks.service.js';
export { TASKS_EXTENSION } from './tasks/task-wire.js';

// Stream mode's backends.
export {
  MCP_EVENT_STORE,
  MCP_MESSAGE_BUS,
  MCP_SESSION_STORE,
  type McpEventStore,
  type McpMessageBus,
  type McpSessionPatch,
  type McpSessionStore,
} from './contracts/stream-backends.js';
export { eventId, parseEventId, sessionOfStream } from './streams/stream-ids.js';
export { InMemorySessionStore } from './streams/in-process/in-memory-session.store.js';
export { InMemoryEventStore } from './streams/in-process/in-memory-event.store.js';
export { InProcessMessageBus } from './streams/in-process/in-process-message.bus.js';
export { MessageBusListeners } from './streams/message-bus-listeners.js';

// The transport's parts, for an application that reads the message or checks requests itself.
export { createHostCheck, type HostCheckSettings } from './transport/request-origin.check.js';
export { createRestBodyReader, type RestBodyRules } from './transport/rest-body.reader.js';
export { attachMcpMessage, mcpMessageOf, mcpTargetOf, type McpRequestMessage } from './transport/mcp-request-message.js';
export type { InboundMessage } from './protocol/json-rpc-message.js';
export { MAX_JSON_DEPTH } from './transport/json-body.reader.js';

// Tracing.
export { McpSpanAttribute, mcpSpanContextOf, setMcpSpanAttributes } from './server/mcp-tracing.js';

// MCP Apps (docs/app-views.md): the extension's names, whether a request's client shows views, the views themselves.
export { MCP_APPS_EXTENSION, MCP_APP_MIME_TYPE, clientSupportsApps } from './views/apps-extension.js';
export { McpViews, type ViewEntry } from './views/mcp-views.js';
export { contentSecurityPolicy } from './views/view-csp.js';
