var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
/**
 * One-time use of multi round-trip `requestState` values, across replicas: the primary key of
 * `request_state_uses` accepts each id once.
 *
 * Written through `prisma.db`, i.e. inside the call's transaction when there is one (every call
 * that may write), not through the root client: if the call then fails and rolls back, its
 * writes are undone and so is the use, and the client may retry with the same state; a state is
 * "used" exactly when the call it confirmed committed. A concurrent second use blocks on the key
 * until the first transaction ends, and is refused if it committed. Read-only calls have no
 * transaction; there the use commits at once.
 *
 * A `final` use (a declined confirmation, whose error answer rolls the call back) is written in
 * the call's transaction too (that insert decides, atomically, whether the state was fresh) and
 * once more when the transaction has ended, so that it stays whatever the call's transaction did.
 */
let PrismaRequestStateStore = class PrismaRequestStateStore {
    prisma;
    constructor(prisma) {
        this.prisma = prisma;
    }
    async consume(id, expiresAt, options = {}) {
        const fresh = await this.insert(this.prisma.db, id, expiresAt);
        if (options.final && fresh)
            await this.prisma.afterTransaction(() => this.insert(this.prisma.client, id, expiresAt));
        return fresh;
    }
    async insert(db, id, expiresAt) {
        // The instant is sent as ISO text and stored as UTC `timestamp` (Prisma's convention).
        const inserted = await db.$queryRaw `
      INSERT INTO request_state_uses (id, expires_at)
      VALUES (${id}, ${expiresAt.toISOString()}::timestamptz AT TIME ZONE 'UTC')
      ON CONFLICT (id) DO NOTHING
      RETURNING id`;
        return inserted.length === 1;
    }
};
PrismaRequestStateStore = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [PrismaService])
], PrismaRequestStateStore);
export { PrismaRequestStateStore };
//# sourceMappingURL=prisma-request-state.store.js.map