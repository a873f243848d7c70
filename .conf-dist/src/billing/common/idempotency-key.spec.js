var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { IdempotencyKey } from './idempotency-key.js';
class RequiredKeyDto {
    idempotency_key;
}
__decorate([
    IdempotencyKey(),
    __metadata("design:type", String)
], RequiredKeyDto.prototype, "idempotency_key", void 0);
class OptionalKeyDto {
    idempotency_key;
}
__decorate([
    IdempotencyKey({ optional: true }),
    __metadata("design:type", String)
], OptionalKeyDto.prototype, "idempotency_key", void 0);
const messages = async (dto, value) => {
    const [error] = await validate(plainToInstance(dto, value === undefined ? {} : { idempotency_key: value }));
    return error ? Object.values(error.constraints ?? {}) : [];
};
describe('@IdempotencyKey', () => {
    it('accepts 8–128 printable ASCII characters', async () => {
        assert.deepEqual(await messages(RequiredKeyDto, 'pay-7d1c2a9e-2f4b-4c71'), []);
        assert.deepEqual(await messages(RequiredKeyDto, 'x'.repeat(128)), []);
    });
    it('says what to fix, the type first', async () => {
        assert.match((await messages(RequiredKeyDto, 42))[0], /must be a string of 8–128 characters/);
        assert.match((await messages(RequiredKeyDto, 'short'))[0], /8–128 characters; reuse the same key/);
        assert.match((await messages(RequiredKeyDto, 'has a space'))[0], /printable ASCII without spaces/);
        assert.equal((await messages(RequiredKeyDto, 'x'.repeat(129))).length, 1);
    });
    it('is required unless declared optional', async () => {
        assert.ok((await messages(RequiredKeyDto, undefined)).length > 0);
        assert.deepEqual(await messages(OptionalKeyDto, undefined), []);
        assert.match((await messages(OptionalKeyDto, 'short'))[0], /8–128 characters/);
    });
});
//# sourceMappingURL=idempotency-key.spec.js.map