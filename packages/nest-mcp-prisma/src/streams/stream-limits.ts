import type { Sql } from '@prisma/client/runtime/client';
import { sqltag as sql } from '@prisma/client/runtime/client';

/** How much of stream mode's events the database keeps. */
export interface StreamEventLimits {
  /** How long an SSE event can be replayed with `Last-Event-ID`. */
  retentionMs: number;
  /** At most this many events kept per stream (the newest stay). */
  maxPerStream: number;
}

/** An instant for a UTC `timestamp(3)` column (Prisma's convention), whatever the process's time zone. */
export function utc(date: Date): Sql {
  return sql`(${date.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
}
