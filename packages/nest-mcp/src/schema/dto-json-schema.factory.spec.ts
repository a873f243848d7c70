import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsBoolean,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { matchSnapshot } from '../testing/snapshot.js';
import { dtoToJsonSchema } from './dto-json-schema.factory.js';

enum Method {
  Transfer = 'transfer',
  Cash = 'cash',
}
enum Priority {
  Low = 1,
  High = 2,
}

class CandidateDto {
  @ApiProperty({ description: 'The candidate value.' })
  @IsString()
  value: string;

  @ApiProperty({ description: 'Where it was found.' })
  @IsIn(['ocr', 'email'])
  source: string;

  @ApiProperty({ description: 'Confidence 0–1.' })
  @IsNumber()
  @Min(0)
  @Max(1)
  confidence: number;
}

class EvidenceDto {
  @ApiProperty({ description: 'Raw extracted data.' })
  @IsObject()
  raw_extracted: Record<string, unknown>;

  @ApiProperty({ description: 'Tracking key candidates.', type: [CandidateDto] })
  @ValidateNested({ each: true })
  @Type(() => CandidateDto)
  @ArrayMaxSize(10)
  tracking_key_candidates: CandidateDto[];
}

class RegisterPaymentDto {
  @ApiProperty({ description: 'Invoice id.' })
  @IsUUID()
  invoice_id: string;

  @ApiProperty({ description: 'Amount in minor units.' })
  @IsInt()
  @IsPositive()
  amount_minor: number;

  @ApiProperty({ description: 'Payment method.' })
  @IsEnum(Method)
  method: Method;

  @IsEnum(Priority)
  priority: Priority;

  @ApiProperty({ description: 'Payer email.' })
  @IsEmail()
  payer_email: string;

  @ApiProperty({ description: 'Value date.', format: 'date' })
  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  value_date: string;

  @ApiProperty({ description: 'Evidence of the payment.' })
  @ValidateNested()
  @Type(() => EvidenceDto)
  evidence: EvidenceDto;

  @ApiPropertyOptional({ description: 'Labels.' })
  @IsOptional()
  @IsString({ each: true })
  @Length(1, 20, { each: true })
  labels?: string[];

  @ApiPropertyOptional({ description: 'Notify the payer.', default: false })
  @IsOptional()
  @IsBoolean()
  notify?: boolean;
}

class ResponseDto {
  @ApiProperty({ description: 'Identifier.' })
  id: string;

  @ApiPropertyOptional({ description: 'Nullable text.', type: String, nullable: true })
  nullable_text?: string | null;

  @ApiPropertyOptional({ description: 'A union TypeScript cannot describe.' })
  union?: string | number;

  @ApiPropertyOptional({ description: 'Optional note.' })
  note?: string;

  @ApiProperty({ type: [CandidateDto] })
  candidates: CandidateDto[];
}

class SelfRef {
  @ValidateNested()
  @Type(() => SelfRef)
  child: SelfRef;
}

describe('dtoToJsonSchema', () => {
  it('describes a nested input DTO (snapshot)', () => {
    const schema = dtoToJsonSchema(RegisterPaymentDto, { mode: 'input', closed: true });
    matchSnapshot(import.meta.url, 'register-payment.input', schema);
  });

  it('makes objects and arrays real JSON structures, closed when extra fields are refused', () => {
    const schema = dtoToJsonSchema(RegisterPaymentDto, { mode: 'input', closed: true });
    const evidence = schema.properties!.evidence;
    assert.equal(evidence.type, 'object');
    assert.equal(evidence.additionalProperties, false);
    assert.equal(evidence.properties!.raw_extracted.type, 'object');
    assert.equal(evidence.properties!.tracking_key_candidates.type, 'array');
    assert.deepEqual(evidence.properties!.tracking_key_candidates.items!.required, ['value', 'source', 'confidence']);
    assert.deepEqual(schema.properties!.labels, {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 20 },
      description: 'Labels.',
    });
  });

  it('maps constraints to keywords and keeps enum values, not numeric-enum keys', () => {
    const schema = dtoToJsonSchema(RegisterPaymentDto, { mode: 'input', closed: false });
    assert.deepEqual(schema.properties!.amount_minor, { type: 'integer', exclusiveMinimum: 0, description: 'Amount in minor units.' });
    assert.deepEqual(schema.properties!.method.enum, ['transfer', 'cash']);
    assert.deepEqual(schema.properties!.priority, { type: 'integer', enum: [1, 2] });
    assert.equal(schema.properties!.payer_email.format, 'email');
    assert.equal(schema.properties!.value_date.pattern, '^\\d{4}-\\d{2}-\\d{2}$');
    assert.equal(schema.properties!.value_date.format, 'date');
    assert.equal(schema.properties!.invoice_id.format, 'uuid');
    assert.deepEqual(schema.required, ['invoice_id', 'amount_minor', 'method', 'priority', 'payer_email', 'value_date', 'evidence']);
    assert.equal(schema.additionalProperties, undefined);
  });

  it('describes response DTOs from @ApiProperty when they carry no validators (snapshot)', () => {
    const schema = dtoToJsonSchema(ResponseDto, { mode: 'output' });
    assert.deepEqual(schema.required, ['id', 'candidates']);
    assert.deepEqual(schema.properties!.nullable_text, { type: ['string', 'null'], description: 'Nullable text.' });
    assert.deepEqual(schema.properties!.union, { description: 'A union TypeScript cannot describe.' });
    assert.equal(schema.properties!.candidates.items!.type, 'object');
    matchSnapshot(import.meta.url, 'response.output', schema);
  });

  it('refuses recursive DTOs at bootstrap', () => {
    assert.throws(() => dtoToJsonSchema(SelfRef, { mode: 'input' }), /recursive/);
  });
});
