import { McpPrismaModule } from '@nest-mcp/prisma';
import { billingAuditActor } from './audit/billing-audit-actor.js';
import { RequestContext } from './context/request-context.js';
import { PrismaService } from './database/prisma.service.js';
import { IDEMPOTENCY_CONFIG, type IdempotencyConfig } from './idempotency/idempotency.config.js';
import { idempotencyScope } from './idempotency/idempotency-scope.js';
import { STREAMS_CONFIG, type StreamsConfig } from './streams/streams.config.js';
import { TASK_QUEUE_CONFIG, type TaskQueueConfig } from './tasks/task-queue.config.js';

/**
 * `@nest-mcp/prisma` as this app configures it: its unit of work is the app's own `PrismaService`
 * (which extends `McpDatabase`), a row's channel outside an MCP call is the request's (`api`,
 * `panel`, `system`), the audit row names the request's workspace, user and token,
 * idempotency keys are per workspace and person (the same scope as REST writes' keys), stream
 * mode's rows are kept as MCP_STREAM_* says, and this replica runs as many tasks as TASK_* says.
 */
export const AppMcpPrismaModule = McpPrismaModule.forRootAsync({
  inject: [PrismaService, IDEMPOTENCY_CONFIG, STREAMS_CONFIG, TASK_QUEUE_CONFIG],
  useFactory: (prisma: PrismaService, idempotency: IdempotencyConfig, streams: StreamsConfig, tasks: TaskQueueConfig) => ({
    database: prisma,
    channel: () => RequestContext.current()?.channel,
    audit: { actor: billingAuditActor },
    idempotency: {
      ttlSeconds: idempotency.ttlSeconds,
      scope: (call) => idempotencyScope(call.invocation.httpRequest, call.invocation.input),
    },
    cleanupIntervalMs: idempotency.cleanupIntervalMs,
    // Stream mode's rows in PostgreSQL (src/streams builds the stores): their limits and cleanup, none with Redis.
    streams: {
      eventRetentionMs: streams.eventRetentionMs,
      maxEventsPerStream: streams.maxEventsPerStream,
      cleanupIntervalMs: streams.redisUrl ? 0 : streams.cleanupIntervalMs,
    },
    tasks,
  }),
});
