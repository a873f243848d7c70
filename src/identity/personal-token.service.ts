import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import type { Principal } from './principal.js';
import { ALL_SCOPES } from './roles.js';
import { displayPrefix, generateTokenSecret, hashToken } from './token-secret.js';

export interface MintRequest {
  email: string;
  scopes: string[];
  workspaceSlug?: string;
  expiresInMs?: number;
  label?: string;
}

export type TokenCheck = { ok: true; principal: Principal } | { ok: false; reason: string };

/** Personal access tokens: minted for a user, stored as a hash, checked on every request. */
@Injectable()
export class PersonalTokenService {
  constructor(private readonly prisma: PrismaService) {}

  async mint(request: MintRequest): Promise<{ token: string; id: string; expiresAt: Date | null }> {
    const unknown = request.scopes.filter((scope) => !ALL_SCOPES.includes(scope));
    if (unknown.length) throw new Error(`Unknown scope(s): ${unknown.join(', ')}. Known: ${ALL_SCOPES.join(' ')}`);
    if (!request.scopes.length) throw new Error('A token needs at least one scope');
    const user = await this.prisma.client.user.findUnique({
      where: { email: request.email.toLowerCase() },
      include: { memberships: { include: { workspace: true } } },
    });
    if (!user) throw new Error(`No user with email ${request.email}`);
    let workspaceId: string | undefined;
    if (request.workspaceSlug) {
      const membership = user.memberships.find((m) => m.workspace.slug === request.workspaceSlug);
      if (!membership) throw new Error(`${request.email} is not a member of workspace ${request.workspaceSlug}`);
      workspaceId = membership.workspaceId;
    }
    const token = generateTokenSecret();
    const expiresAt = request.expiresInMs ? new Date(Date.now() + request.expiresInMs) : null;
    const record = await this.prisma.client.accessToken.create({
      data: {
        tokenHash: hashToken(token),
        prefix: displayPrefix(token),
        userId: user.id,
        workspaceId,
        scopes: request.scopes,
        label: request.label,
        expiresAt,
      },
    });
    return { token, id: record.id, expiresAt };
  }

  async check(token: string): Promise<TokenCheck> {
    const record = await this.prisma.client.accessToken.findUnique({
      where: { tokenHash: hashToken(token) },
      include: { user: { include: { memberships: { include: { workspace: true } } } } },
    });
    if (!record) return { ok: false, reason: 'The access token is not valid' };
    if (record.revokedAt) return { ok: false, reason: 'The access token has been revoked' };
    if (record.expiresAt && record.expiresAt.getTime() <= Date.now()) return { ok: false, reason: 'The access token has expired' };
    return {
      ok: true,
      principal: {
        userId: record.userId,
        email: record.user.email,
        tokenId: record.id,
        kind: 'personal',
        scopes: record.scopes,
        ...(record.workspaceId ? { workspaceId: record.workspaceId } : {}),
        memberships: record.user.memberships.map((m) => ({ workspaceId: m.workspaceId, slug: m.workspace.slug, role: m.role })),
      },
    };
  }

  async revoke(id: string): Promise<void> {
    await this.prisma.client.accessToken.update({ where: { id }, data: { revokedAt: new Date() } });
  }
}
