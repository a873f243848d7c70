import { API_CHANNEL } from '../channel/mcp-channel.js';
import { McpDatabase } from '../database/mcp-database.js';
import { resolveTaskQueueOptions } from '../tasks/task-queue.options.js';
import type { McpPrismaOptions, ResolvedMcpPrismaOptions } from './mcp-prisma.options.js';

const DAY_SECONDS = 24 * 3600;

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`McpPrismaModule: ${name} must be a whole number ≥ 1, got ${value}`);
  return value;
}

/** The options with every default filled; a wrong value stops the boot, naming the option. */
export function resolveMcpPrismaOptions(options: McpPrismaOptions): ResolvedMcpPrismaOptions {
  const ttlSeconds = positive('idempotency.ttlSeconds', options.idempotency?.ttlSeconds ?? DAY_SECONDS);
  if (!!options.database === !!options.connection)
    throw new Error('McpPrismaModule: give either connection ({ url: "postgresql://…" }) or database (your own McpDatabase), exactly one');
  if (options.connection && !options.connection.url)
    throw new Error('McpPrismaModule: connection.url is required (the PostgreSQL database)');
  return {
    database: options.database ?? new McpDatabase(options.connection!),
    channel: options.channel ?? API_CHANNEL,
    givenChannel: options.channel,
    audit: { actor: options.audit?.actor ?? (() => ({})) },
    idempotency: { ttlSeconds, scope: options.idempotency?.scope },
    cleanupIntervalMs: options.cleanupIntervalMs ?? 3_600_000,
    tasks: resolveTaskQueueOptions(options.tasks),
    streams: {
      limits: {
        retentionMs: positive('streams.eventRetentionMs', options.streams?.eventRetentionMs ?? 600_000),
        maxPerStream: positive('streams.maxEventsPerStream', options.streams?.maxEventsPerStream ?? 1000),
      },
      cleanupIntervalMs: options.streams ? (options.streams.cleanupIntervalMs ?? 60_000) : 0,
      busChannel: options.streams?.busChannel ?? 'mcp_bus',
    },
  };
}
