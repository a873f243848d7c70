import { Injectable } from '@nestjs/common';
import type { ClientCapabilities, Implementation, LoggingLevel } from '@modelcontextprotocol/server';
import type { McpSession, McpSessionStore } from '@nest-mcp/core';
import { PrismaService } from '../../database/prisma.service.js';
import type { Prisma } from '../../generated/prisma/client.js';

/**
 * Sessions in `mcp_sessions`, read by every replica. Always on the pool's own connections
 * (`prisma.client`), never in a request's transaction: a session outlives any call, and a call
 * that rolls back must not take `logging/setLevel` or a subscription with it. An expired row is
 * unknown at once (`expires_at` is checked on read); the cleanup deletes it later.
 */
@Injectable()
export class PostgresSessionStore implements McpSessionStore {
  constructor(private readonly prisma: PrismaService) {}

  async create(session: McpSession): Promise<void> {
    await this.prisma.client.mcpSession.create({
      data: {
        id: session.id,
        callerKey: session.callerKey,
        protocolVersion: session.protocolVersion,
        ...(session.clientInfo ? { clientInfo: session.clientInfo as Prisma.InputJsonValue } : {}),
        clientCapabilities: session.clientCapabilities as Prisma.InputJsonValue,
        ...(session.logLevel ? { logLevel: session.logLevel } : {}),
        subscriptions: session.subscriptions,
        createdAt: session.createdAt,
        expiresAt: session.expiresAt,
      },
    });
  }

  async get(id: string): Promise<McpSession | undefined> {
    const row = await this.prisma.client.mcpSession.findFirst({ where: { id, expiresAt: { gt: new Date() } } });
    if (!row) return undefined;
    return {
      id: row.id,
      callerKey: row.callerKey,
      protocolVersion: row.protocolVersion,
      ...(row.clientInfo ? { clientInfo: row.clientInfo as unknown as Implementation } : {}),
      clientCapabilities: row.clientCapabilities as ClientCapabilities,
      ...(row.logLevel ? { logLevel: row.logLevel as LoggingLevel } : {}),
      subscriptions: row.subscriptions,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
    };
  }

  async update(id: string, patch: Partial<Pick<McpSession, 'logLevel' | 'subscriptions' | 'expiresAt'>>): Promise<void> {
    const data = {
      ...('logLevel' in patch ? { logLevel: patch.logLevel ?? null } : {}),
      ...(patch.subscriptions ? { subscriptions: patch.subscriptions } : {}),
      ...(patch.expiresAt ? { expiresAt: patch.expiresAt } : {}),
    };
    if (!Object.keys(data).length) return;
    // updateMany: an unknown (or already expired) id is a no-op, not an error.
    await this.prisma.client.mcpSession.updateMany({ where: { id, expiresAt: { gt: new Date() } }, data });
  }

  async delete(id: string): Promise<void> {
    await this.prisma.client.mcpSession.deleteMany({ where: { id } });
  }

  async subscribersOf(uri: string): Promise<string[]> {
    const rows = await this.prisma.client.mcpSession.findMany({
      where: { subscriptions: { has: uri }, expiresAt: { gt: new Date() } },
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }
}
