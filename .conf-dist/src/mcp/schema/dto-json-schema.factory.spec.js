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
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsBoolean, IsEmail, IsEnum, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsPositive, IsString, IsUUID, Length, Matches, Max, Min, ValidateNested, } from 'class-validator';
import { matchSnapshot } from '../../../test/support/snapshot.js';
import { dtoToJsonSchema } from './dto-json-schema.factory.js';
var Method;
(function (Method) {
    Method["Transfer"] = "transfer";
    Method["Cash"] = "cash";
})(Method || (Method = {}));
var Priority;
(function (Priority) {
    Priority[Priority["Low"] = 1] = "Low";
    Priority[Priority["High"] = 2] = "High";
})(Priority || (Priority = {}));
class CandidateDto {
    value;
    source;
    confidence;
}
__decorate([
    ApiProperty({ description: 'The candidate value.' }),
    IsString(),
    __metadata("design:type", String)
], CandidateDto.prototype, "value", void 0);
__decorate([
    ApiProperty({ description: 'Where it was found.' }),
    IsIn(['ocr', 'email']),
    __metadata("design:type", String)
], CandidateDto.prototype, "source", void 0);
__decorate([
    ApiProperty({ description: 'Confidence 0–1.' }),
    IsNumber(),
    Min(0),
    Max(1),
    __metadata("design:type", Number)
], CandidateDto.prototype, "confidence", void 0);
class EvidenceDto {
    raw_extracted;
    tracking_key_candidates;
}
__decorate([
    ApiProperty({ description: 'Raw extracted data.' }),
    IsObject(),
    __metadata("design:type", Object)
], EvidenceDto.prototype, "raw_extracted", void 0);
__decorate([
    ApiProperty({ description: 'Tracking key candidates.', type: [CandidateDto] }),
    ValidateNested({ each: true }),
    Type(() => CandidateDto),
    ArrayMaxSize(10),
    __metadata("design:type", Array)
], EvidenceDto.prototype, "tracking_key_candidates", void 0);
class RegisterPaymentDto {
    invoice_id;
    amount_minor;
    method;
    priority;
    payer_email;
    value_date;
    evidence;
    labels;
    notify;
}
__decorate([
    ApiProperty({ description: 'Invoice id.' }),
    IsUUID(),
    __metadata("design:type", String)
], RegisterPaymentDto.prototype, "invoice_id", void 0);
__decorate([
    ApiProperty({ description: 'Amount in minor units.' }),
    IsInt(),
    IsPositive(),
    __metadata("design:type", Number)
], RegisterPaymentDto.prototype, "amount_minor", void 0);
__decorate([
    ApiProperty({ description: 'Payment method.' }),
    IsEnum(Method),
    __metadata("design:type", String)
], RegisterPaymentDto.prototype, "method", void 0);
__decorate([
    IsEnum(Priority),
    __metadata("design:type", Number)
], RegisterPaymentDto.prototype, "priority", void 0);
__decorate([
    ApiProperty({ description: 'Payer email.' }),
    IsEmail(),
    __metadata("design:type", String)
], RegisterPaymentDto.prototype, "payer_email", void 0);
__decorate([
    ApiProperty({ description: 'Value date.', format: 'date' }),
    Matches(/^\d{4}-\d{2}-\d{2}$/),
    __metadata("design:type", String)
], RegisterPaymentDto.prototype, "value_date", void 0);
__decorate([
    ApiProperty({ description: 'Evidence of the payment.' }),
    ValidateNested(),
    Type(() => EvidenceDto),
    __metadata("design:type", EvidenceDto)
], RegisterPaymentDto.prototype, "evidence", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Labels.' }),
    IsOptional(),
    IsString({ each: true }),
    Length(1, 20, { each: true }),
    __metadata("design:type", Array)
], RegisterPaymentDto.prototype, "labels", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Notify the payer.', default: false }),
    IsOptional(),
    IsBoolean(),
    __metadata("design:type", Boolean)
], RegisterPaymentDto.prototype, "notify", void 0);
class ResponseDto {
    id;
    nullable_text;
    union;
    note;
    candidates;
}
__decorate([
    ApiProperty({ description: 'Identifier.' }),
    __metadata("design:type", String)
], ResponseDto.prototype, "id", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Nullable text.', type: String, nullable: true }),
    __metadata("design:type", Object)
], ResponseDto.prototype, "nullable_text", void 0);
__decorate([
    ApiPropertyOptional({ description: 'A union TypeScript cannot describe.' }),
    __metadata("design:type", Object)
], ResponseDto.prototype, "union", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Optional note.' }),
    __metadata("design:type", String)
], ResponseDto.prototype, "note", void 0);
__decorate([
    ApiProperty({ type: [CandidateDto] }),
    __metadata("design:type", Array)
], ResponseDto.prototype, "candidates", void 0);
class SelfRef {
    child;
}
__decorate([
    ValidateNested(),
    Type(() => SelfRef),
    __metadata("design:type", SelfRef)
], SelfRef.prototype, "child", void 0);
describe('dtoToJsonSchema', () => {
    it('describes a nested input DTO (snapshot)', () => {
        const schema = dtoToJsonSchema(RegisterPaymentDto, { mode: 'input', closed: true });
        matchSnapshot('src/mcp/schema', 'register-payment.input', schema);
    });
    it('makes objects and arrays real JSON structures, closed when extra fields are refused', () => {
        const schema = dtoToJsonSchema(RegisterPaymentDto, { mode: 'input', closed: true });
        const evidence = schema.properties.evidence;
        assert.equal(evidence.type, 'object');
        assert.equal(evidence.additionalProperties, false);
        assert.equal(evidence.properties.raw_extracted.type, 'object');
        assert.equal(evidence.properties.tracking_key_candidates.type, 'array');
        assert.deepEqual(evidence.properties.tracking_key_candidates.items.required, ['value', 'source', 'confidence']);
        assert.deepEqual(schema.properties.labels, {
            type: 'array',
            items: { type: 'string', minLength: 1, maxLength: 20 },
            description: 'Labels.',
        });
    });
    it('maps constraints to keywords and keeps enum values, not numeric-enum keys', () => {
        const schema = dtoToJsonSchema(RegisterPaymentDto, { mode: 'input', closed: false });
        assert.deepEqual(schema.properties.amount_minor, { type: 'integer', exclusiveMinimum: 0, description: 'Amount in minor units.' });
        assert.deepEqual(schema.properties.method.enum, ['transfer', 'cash']);
        assert.deepEqual(schema.properties.priority, { type: 'integer', enum: [1, 2] });
        assert.equal(schema.properties.payer_email.format, 'email');
        assert.equal(schema.properties.value_date.pattern, '^\\d{4}-\\d{2}-\\d{2}$');
        assert.equal(schema.properties.value_date.format, 'date');
        assert.equal(schema.properties.invoice_id.format, 'uuid');
        assert.deepEqual(schema.required, ['invoice_id', 'amount_minor', 'method', 'priority', 'payer_email', 'value_date', 'evidence']);
        assert.equal(schema.additionalProperties, undefined);
    });
    it('describes response DTOs from @ApiProperty when they carry no validators (snapshot)', () => {
        const schema = dtoToJsonSchema(ResponseDto, { mode: 'output' });
        assert.deepEqual(schema.required, ['id', 'candidates']);
        assert.deepEqual(schema.properties.nullable_text, { type: ['string', 'null'], description: 'Nullable text.' });
        assert.deepEqual(schema.properties.union, { description: 'A union TypeScript cannot describe.' });
        assert.equal(schema.properties.candidates.items.type, 'object');
        matchSnapshot('src/mcp/schema', 'response.output', schema);
    });
    it('refuses recursive DTOs at bootstrap', () => {
        assert.throws(() => dtoToJsonSchema(SelfRef, { mode: 'input' }), /recursive/);
    });
});
//# sourceMappingURL=dto-json-schema.factory.spec.js.map