import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JWTPayload } from 'jose';
import type { McpUserResolver, McpVerifiedToken } from '@nest-mcp/auth';
import { PrismaService } from '../database/prisma.service.js';
import { IDENTITY_CONFIG, type IdentityConfig } from './identity.config.js';
import type { BillingUser } from './principal.js';

const WITH_MEMBERSHIPS = { memberships: { include: { workspace: true } } } as const;

const LINKED_TO_ANOTHER_SUBJECT = {
  ok: false,
  reason:
    "The access token's subject is not linked, and its email belongs to a user already linked to another subject of this issuer: an administrator decides (npm run identity:link)",
} as const;

type UserWithMemberships = NonNullable<Awaited<ReturnType<ExternalIdentityService['linkedUser']>>>;

export type IdentityResolution = { ok: true; user: UserWithMemberships } | { ok: false; reason: string };

/**
 * Who a verified JWT acts as (`@nest-mcp/auth`'s user resolver): the user linked to its issuer + subject (`external_identities`),
 * never the user an `email` claim or an email-shaped `sub` names. A first-seen subject is linked
 * by verified email, or provisioned as a new user, only where the operator turned that on
 * (docs/identity.md, "JWT identity").
 */
@Injectable()
export class ExternalIdentityService implements McpUserResolver<BillingUser> {
  private readonly logger = new Logger('Identity');

  constructor(
    private readonly prisma: PrismaService,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
  ) {}

  /** The user a verified token acts as, with their memberships, or why it is refused. */
  async resolve({ issuer, subject, claims }: McpVerifiedToken): Promise<BillingUser | string> {
    const identity = await this.identify(issuer, subject, claims);
    if (!identity.ok) return identity.reason;
    const { user } = identity;
    return {
      userId: user.id,
      email: user.email,
      memberships: user.memberships.map((m) => ({ workspaceId: m.workspaceId, slug: m.workspace.slug, role: m.role })),
    };
  }

  private async identify(issuer: string, subject: string, claims: JWTPayload): Promise<IdentityResolution> {
    const linked = await this.linkedUser(issuer, subject);
    if (linked) return { ok: true, user: linked };
    if (this.config.issuers.find((i) => i.issuer === issuer)?.linkVerifiedEmail) {
      const byEmail = await this.linkByVerifiedEmail(issuer, subject, claims);
      if (byEmail) return byEmail;
    }
    if (this.config.issuers.find((i) => i.issuer === issuer)?.provisionUsers)
      return { ok: true, user: await this.provision(issuer, subject, claims) };
    return {
      ok: false,
      reason: "The access token's subject is not linked to a user of this server: an administrator links it (npm run identity:link)",
    };
  }

  linkedUser(issuer: string, subject: string) {
    return this.prisma.client.externalIdentity
      .findUnique({ where: { issuer_subject: { issuer, subject } }, include: { user: { include: WITH_MEMBERSHIPS } } })
      .then((identity) => identity?.user);
  }

  /**
   * Links to the user of a verified email, unless that user already has a subject at this issuer.
   * The database decides who is first (one subject per user and issuer, `@@unique([issuer, userId])`):
   * of concurrent first sign-ins carrying one email, one is linked and the others are refused as a
   * later different subject is.
   */
  private async linkByVerifiedEmail(issuer: string, subject: string, claims: JWTPayload): Promise<IdentityResolution | undefined> {
    const email = verifiedEmail(claims);
    if (!email) return undefined;
    const user = await this.prisma.client.user.findUnique({ where: { email }, include: WITH_MEMBERSHIPS });
    if (!user) return undefined;
    const other = await this.prisma.client.externalIdentity.findFirst({ where: { issuer, userId: user.id } });
    if (other && other.subject !== subject) return LINKED_TO_ANOTHER_SUBJECT;
    // ON CONFLICT DO NOTHING, on either unique key: a concurrent first request of the same subject
    // (it is linked to this user either way), or of another subject with this email (it won: refused below).
    const { count } = await this.prisma.client.externalIdentity.createMany({
      data: [{ issuer, subject, userId: user.id, linkedBy: 'verified-email' }],
      skipDuplicates: true,
    });
    const linked = await this.linkedUser(issuer, subject);
    if (count && linked?.id === user.id) this.logger.log(`Linked a new ${issuer} subject to user ${user.id} by its verified email`);
    if (linked) return { ok: true, user: linked };
    return LINKED_TO_ANOTHER_SUBJECT;
  }

  /** A new user of its own, with no workspace: an existing account is never taken over. */
  private async provision(issuer: string, subject: string, claims: JWTPayload): Promise<UserWithMemberships> {
    const email = verifiedEmail(claims);
    const taken = email ? await this.prisma.client.user.findUnique({ where: { email }, select: { id: true } }) : null;
    const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 200) : subject.slice(0, 200);
    const user = await this.prisma.client.user.create({
      data: {
        email: email && !taken ? email : syntheticEmail(issuer, subject),
        name,
        identities: { create: { issuer, subject, linkedBy: 'provisioned' } },
      },
      include: WITH_MEMBERSHIPS,
    });
    this.logger.log(`Provisioned user ${user.id} for a new ${issuer} subject (no workspace yet)`);
    return user;
  }
}

/** The token's email, lower-cased, when the issuer says it verified it (`email_verified: true`). */
function verifiedEmail(claims: JWTPayload): string | undefined {
  return claims.email_verified === true && typeof claims.email === 'string' && claims.email.includes('@')
    ? claims.email.toLowerCase()
    : undefined;
}

/** A unique address nobody can receive mail at (RFC 2606 `.invalid`), for a user provisioned without a usable email. */
function syntheticEmail(issuer: string, subject: string): string {
  const digest = createHash('sha256').update(issuer).update('\0').update(subject).digest('hex').slice(0, 24);
  return `jwt-${digest}@provisioned.invalid`;
}
