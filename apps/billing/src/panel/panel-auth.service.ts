import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import { RATE_LIMIT_CONFIG, type RateLimitConfig } from '../rate-limit/rate-limit.config.js';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../rate-limit/store/rate-limit.store.js';
import { PanelLoginThrottle } from './panel-login-throttle.js';
import { hashPanelPassword, verifyPanelPassword } from './panel-password.js';

/** How long a panel session lasts from sign-in (absolute, no sliding). */
export const PANEL_SESSION_TTL_MS = 8 * 3_600_000;

/** A signed-in panel user, as the pages need it. */
export interface PanelSession {
  /** SHA-256 of the cookie secret (the row id). */
  id: string;
  userId: string;
  email: string;
  name: string;
  csrfToken: string;
  expiresAt: Date;
}

export type LoginResult =
  { ok: true; secret: string; session: PanelSession } | { ok: false; reason: 'invalid' | 'throttled'; retryAfterMs?: number };

export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function sessionIdOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Constant-time equality of two strings (false when either is missing or lengths differ). */
export function sameSecret(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || !a || !b) return false;
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y) && a.length === b.length;
}

/**
 * Sign-in and sessions of the admin panel. The cookie holds a random secret; the database holds
 * only its SHA-256 (`panel_sessions.id`), the user and the session's CSRF token.
 */
@Injectable()
export class PanelAuthService {
  private dummyHash?: Promise<string>;
  private readonly throttle: PanelLoginThrottle;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(RATE_LIMIT_STORE) store: RateLimitStore,
    @Inject(RATE_LIMIT_CONFIG) config: RateLimitConfig,
  ) {
    this.throttle = new PanelLoginThrottle(store, config.keyPrefix);
  }

  async login(emailInput: string, password: string, address: string): Promise<LoginResult> {
    const email = emailInput.trim().toLowerCase();
    const verdict = await this.throttle.check(address, email);
    if (verdict.locked) return { ok: false, reason: 'throttled', retryAfterMs: verdict.retryAfterMs };
    if (verdict.delayMs) await sleep(verdict.delayMs);

    const user = email && email.length <= 320 ? await this.prisma.db.user.findUnique({ where: { email } }) : null;
    // Unknown email or no panel password: verify against a dummy hash all the same, so the
    // answer takes as long as for a wrong password and does not tell which emails exist.
    const stored = user?.passwordHash ?? (await this.dummy());
    const valid = (await verifyPanelPassword(stored, password.slice(0, 1024))) && !!user?.passwordHash;
    if (!user || !valid) {
      await this.throttle.failed(address, email);
      return { ok: false, reason: 'invalid' };
    }

    const secret = randomSecret();
    const row = await this.prisma.db.panelSession.create({
      data: { id: sessionIdOf(secret), userId: user.id, csrfToken: randomSecret(), expiresAt: new Date(Date.now() + PANEL_SESSION_TTL_MS) },
    });
    // Housekeeping: this user's sessions that ended.
    await this.prisma.db.panelSession.deleteMany({ where: { userId: user.id, expiresAt: { lt: new Date() } } });
    return {
      ok: true,
      secret,
      session: { id: row.id, userId: user.id, email: user.email, name: user.name, csrfToken: row.csrfToken, expiresAt: row.expiresAt },
    };
  }

  /** The live session of a cookie secret, or undefined (unknown, malformed or expired). */
  async session(secret: string | undefined): Promise<PanelSession | undefined> {
    if (!secret || secret.length > 200) return undefined;
    const row = await this.prisma.db.panelSession.findUnique({ where: { id: sessionIdOf(secret) }, include: { user: true } });
    if (!row || row.expiresAt.getTime() <= Date.now()) return undefined;
    return {
      id: row.id,
      userId: row.userId,
      email: row.user.email,
      name: row.user.name,
      csrfToken: row.csrfToken,
      expiresAt: row.expiresAt,
    };
  }

  async logout(sessionId: string): Promise<void> {
    await this.prisma.db.panelSession.deleteMany({ where: { id: sessionId } });
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPanelPassword(randomSecret());
    return this.dummyHash;
  }
}
