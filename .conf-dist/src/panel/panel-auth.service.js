var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import { RATE_LIMIT_CONFIG } from '../rate-limit/rate-limit.config.js';
import { RATE_LIMIT_STORE } from '../rate-limit/store/rate-limit.store.js';
import { PanelLoginThrottle } from './panel-login-throttle.js';
import { hashPanelPassword, verifyPanelPassword } from './panel-password.js';
/** How long a panel session lasts from sign-in (absolute, no sliding). */
export const PANEL_SESSION_TTL_MS = 8 * 3_600_000;
export function randomSecret() {
    return randomBytes(32).toString('base64url');
}
export function sessionIdOf(secret) {
    return createHash('sha256').update(secret).digest('hex');
}
/** Constant-time equality of two strings (false when either is missing or lengths differ). */
export function sameSecret(a, b) {
    if (typeof a !== 'string' || typeof b !== 'string' || !a || !b)
        return false;
    const x = createHash('sha256').update(a).digest();
    const y = createHash('sha256').update(b).digest();
    return timingSafeEqual(x, y) && a.length === b.length;
}
/**
 * Sign-in and sessions of the admin panel. The cookie holds a random secret; the database holds
 * only its SHA-256 (`panel_sessions.id`), the user and the session's CSRF token.
 */
let PanelAuthService = class PanelAuthService {
    prisma;
    dummyHash;
    throttle;
    constructor(prisma, store, config) {
        this.prisma = prisma;
        this.throttle = new PanelLoginThrottle(store, config.keyPrefix);
    }
    async login(emailInput, password, address) {
        const email = emailInput.trim().toLowerCase();
        const verdict = await this.throttle.check(address, email);
        if (verdict.locked)
            return { ok: false, reason: 'throttled', retryAfterMs: verdict.retryAfterMs };
        if (verdict.delayMs)
            await sleep(verdict.delayMs);
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
        return { ok: true, secret, session: { id: row.id, userId: user.id, email: user.email, name: user.name, csrfToken: row.csrfToken, expiresAt: row.expiresAt } };
    }
    /** The live session of a cookie secret, or undefined (unknown, malformed or expired). */
    async session(secret) {
        if (!secret || secret.length > 200)
            return undefined;
        const row = await this.prisma.db.panelSession.findUnique({ where: { id: sessionIdOf(secret) }, include: { user: true } });
        if (!row || row.expiresAt.getTime() <= Date.now())
            return undefined;
        return { id: row.id, userId: row.userId, email: row.user.email, name: row.user.name, csrfToken: row.csrfToken, expiresAt: row.expiresAt };
    }
    async logout(sessionId) {
        await this.prisma.db.panelSession.deleteMany({ where: { id: sessionId } });
    }
    dummy() {
        this.dummyHash ??= hashPanelPassword(randomSecret());
        return this.dummyHash;
    }
};
PanelAuthService = __decorate([
    Injectable(),
    __param(1, Inject(RATE_LIMIT_STORE)),
    __param(2, Inject(RATE_LIMIT_CONFIG)),
    __metadata("design:paramtypes", [PrismaService, Object, Object])
], PanelAuthService);
export { PanelAuthService };
//# sourceMappingURL=panel-auth.service.js.map