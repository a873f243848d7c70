import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
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

export type LoginResult = { ok: true; secret: string; session: PanelSession } | { ok: false; reason: 'invalid' | 'throttled'; retryAfterMs?: number };

/** Failed sign-ins allowed per window, per email and per client address. */
const WINDOW_MS = 15 * 60_000;
const MAX_FAILURES_PER_EMAIL = 10;
const MAX_FAILURES_PER_ADDRESS = 50;

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
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly prisma: PrismaService) {}

  async login(emailInput: string, password: string, address: string): Promise<LoginResult> {
    const email = emailInput.trim().toLowerCase();
    const throttled = this.throttled(`email:${email}`, MAX_FAILURES_PER_EMAIL) ?? this.throttled(`addr:${address}`, MAX_FAILURES_PER_ADDRESS);
    if (throttled !== undefined) return { ok: false, reason: 'throttled', retryAfterMs: throttled };

    const user = email && email.length <= 320 ? await this.prisma.db.user.findUnique({ where: { email } }) : null;
    // Unknown email or no panel password: verify against a dummy hash all the same, so the
    // answer takes as long as for a wrong password and does not tell which emails exist.
    const stored = user?.passwordHash ?? (await this.dummy());
    const valid = (await verifyPanelPassword(stored, password.slice(0, 1024))) && !!user?.passwordHash;
    if (!user || !valid) {
      this.fail(`email:${email}`);
      this.fail(`addr:${address}`);
      return { ok: false, reason: 'invalid' };
    }
    this.failures.delete(`email:${email}`);

    const secret = randomSecret();
    const row = await this.prisma.db.panelSession.create({
      data: { id: sessionIdOf(secret), userId: user.id, csrfToken: randomSecret(), expiresAt: new Date(Date.now() + PANEL_SESSION_TTL_MS) },
    });
    // Housekeeping: this user's sessions that ended.
    await this.prisma.db.panelSession.deleteMany({ where: { userId: user.id, expiresAt: { lt: new Date() } } });
    return { ok: true, secret, session: { id: row.id, userId: user.id, email: user.email, name: user.name, csrfToken: row.csrfToken, expiresAt: row.expiresAt } };
  }

  /** The live session of a cookie secret, or undefined (unknown, malformed or expired). */
  async session(secret: string | undefined): Promise<PanelSession | undefined> {
    if (!secret || secret.length > 200) return undefined;
    const row = await this.prisma.db.panelSession.findUnique({ where: { id: sessionIdOf(secret) }, include: { user: true } });
    if (!row || row.expiresAt.getTime() <= Date.now()) return undefined;
    return { id: row.id, userId: row.userId, email: row.user.email, name: row.user.name, csrfToken: row.csrfToken, expiresAt: row.expiresAt };
  }

  async logout(sessionId: string): Promise<void> {
    await this.prisma.db.panelSession.deleteMany({ where: { id: sessionId } });
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPanelPassword(randomSecret());
    return this.dummyHash;
  }

  /** Milliseconds until the oldest failure in the window leaves it, when the key is over its limit. */
  private throttled(key: string, limit: number): number | undefined {
    const now = Date.now();
    const recent = (this.failures.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
    if (recent.length) this.failures.set(key, recent);
    else this.failures.delete(key);
    return recent.length >= limit ? WINDOW_MS - (now - recent[0]) : undefined;
  }

  private fail(key: string): void {
    const list = this.failures.get(key) ?? [];
    list.push(Date.now());
    this.failures.set(key, list.slice(-100));
    // Bound the map: a flood of distinct emails must not grow memory without limit.
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value as string);
  }
}
