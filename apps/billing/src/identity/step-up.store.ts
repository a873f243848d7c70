import { Injectable } from '@nestjs/common';
import type { McpStepUpStore } from '@nest-mcp/auth';
import { PrismaService } from '../database/prisma.service.js';
import { Prisma } from '../generated/prisma/client.js';

/**
 * `@nest-mcp/auth`'s step-up memory in PostgreSQL (`step_up_challenges`), so a client's retry on
 * any replica gets the plain refusal after a step-up the provider did not grant. A challenge
 * belongs to no one call: it is written as an export's parts are, before (outside) the call's
 * transaction, which the refusal rolls back.
 */
@Injectable()
export class PostgresStepUpStore implements McpStepUpStore {
  constructor(private readonly prisma: PrismaService) {}

  async challenged(callerId: string, scopes: readonly string[], at: number): Promise<void> {
    if (!scopes.length) return;
    await this.prisma.writeBeforeWrites(() =>
      this.prisma.sql(Prisma.sql`
        INSERT INTO step_up_challenges (caller_id, scope, challenged_at)
        SELECT ${callerId}, scope, ${new Date(at)} FROM unnest(${[...scopes]}::text[]) AS scope
        ON CONFLICT (caller_id, scope) DO UPDATE SET challenged_at = EXCLUDED.challenged_at`),
    );
  }

  async lastChallenged(callerId: string, scopes: readonly string[], withinMs: number): Promise<Map<string, number>> {
    const { rows } = await this.prisma.readBeforeWrites(() =>
      this.prisma.sql<{ scope: string; at: Date }>(Prisma.sql`
        SELECT scope, challenged_at AS at FROM step_up_challenges
        WHERE caller_id = ${callerId} AND scope = ANY(${[...scopes]}::text[]) AND challenged_at > ${new Date(Date.now() - withinMs)}`),
    );
    return new Map(rows.map((row) => [row.scope, new Date(row.at).getTime()]));
  }
}
