var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'class-transformer';
import { IsInt, IsString, Min, ValidateNested } from 'class-validator';
import { validateArguments } from './dto-argument.validator.js';
class LineDto {
    quantity;
}
__decorate([
    IsInt(),
    Min(1),
    __metadata("design:type", Number)
], LineDto.prototype, "quantity", void 0);
class OrderDto {
    customer;
    lines;
}
__decorate([
    IsString(),
    __metadata("design:type", String)
], OrderDto.prototype, "customer", void 0);
__decorate([
    ValidateNested({ each: true }),
    Type(() => LineDto),
    __metadata("design:type", Array)
], OrderDto.prototype, "lines", void 0);
describe('validateArguments', () => {
    it('returns a DTO instance with nested instances when the arguments are valid', async () => {
        const result = await validateArguments(OrderDto, { customer: 'c1', lines: [{ quantity: 2 }] }, { forbidUnknown: true });
        assert.ok(result.ok);
        assert.ok(result.value instanceof OrderDto);
        assert.ok(result.value.lines[0] instanceof LineDto);
    });
    it('names every violated field by its full path', async () => {
        const result = await validateArguments(OrderDto, { customer: 7, lines: [{ quantity: 0 }], surprise: true }, { forbidUnknown: true });
        assert.ok(!result.ok);
        assert.deepEqual(result.violations.map((v) => v.field).sort(), ['customer', 'lines[0].quantity', 'surprise']);
        assert.match(result.violations.find((v) => v.field === 'lines[0].quantity').message, /^`lines\[0\]\.quantity` must not be less than 1/);
        assert.match(result.violations.find((v) => v.field === 'surprise').message, /not an accepted argument; remove it/);
    });
    it('accepts unknown fields (and drops them) when configured to', async () => {
        const result = await validateArguments(OrderDto, { customer: 'c', lines: [], extra: 1 }, { forbidUnknown: false });
        assert.ok(result.ok);
        assert.equal(result.value.extra, undefined);
    });
    it('refuses arguments that are not an object', async () => {
        for (const args of [null, [], 'x', 3]) {
            const result = await validateArguments(OrderDto, args, { forbidUnknown: true });
            assert.ok(!result.ok);
            assert.equal(result.violations[0].message, 'arguments must be a JSON object');
        }
    });
});
//# sourceMappingURL=dto-argument.validator.spec.js.map