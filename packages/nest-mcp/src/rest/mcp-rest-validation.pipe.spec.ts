import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BadRequestException, type ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsEmail, IsInt, IsObject, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { mcpRestValidationPipe } from './mcp-rest-validation.pipe.js';

class ContactDto {
  @IsString()
  name: string;

  @IsEmail()
  email: string;
}

class LineDto {
  @IsInt()
  @Min(1)
  quantity: number;
}

class CustomerDto {
  @IsString()
  company: string;

  @ValidateNested()
  @Type(() => ContactDto)
  contact: ContactDto;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => LineDto)
  lines?: LineDto[];
}

class PaymentDto {
  @ValidateNested()
  @Type(() => ContactDto)
  @IsObject({ message: 'payer must be a JSON object {"name": ..., "email": ...}' })
  payer: ContactDto;
}

/** A tree: a DTO the MCP layer cannot describe (its schema would be infinite), still a valid REST DTO. */
class FolderDto {
  @IsString()
  name: string;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => FolderDto)
  folders?: FolderDto[];
}

const body = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype });

/** The 400 body the pipe refuses `value` with. */
async function refusal(value: unknown, metadata: ArgumentMetadata = body(CustomerDto)): Promise<Record<string, any>> {
  try {
    await mcpRestValidationPipe().transform(value, metadata);
  } catch (error) {
    assert.ok(error instanceof BadRequestException, `expected a 400, got ${String(error)}`);
    return error.getResponse() as Record<string, any>;
  }
  assert.fail('the pipe let the value through');
}

const invalidArgument = (field: string, message: string) => ({ code: 'invalid_argument', field, message, retryable: false });

describe('mcpRestValidationPipe: the shape rules of tool arguments', () => {
  it('refuses a body without its required nested object, naming it as missing (ValidationPipe alone lets it through)', async () => {
    const response = await refusal({ company: 'Acme' });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.message, ['`contact` is missing']);
    assert.deepEqual(response.errors, [invalidArgument('contact', '`contact` is missing')]);
  });

  it('says "must be an object" for a string where the nested object belongs, and "must be an array" for nested items', async () => {
    const notObject = await refusal({ company: 'Acme', contact: 'Ana <ana@acme.example>' });
    assert.deepEqual(notObject.message, ['`contact` must be an object']);
    const notArray = await refusal({ company: 'Acme', contact: { name: 'Ana', email: 'ana@acme.example' }, lines: 'two' });
    assert.deepEqual(notArray.message, ['`lines` must be an array']);
  });

  it('reports the shape first and in its words, then the other constraints, by full path', async () => {
    const response = await refusal({ company: 7, contact: { name: 'Ana' }, lines: [{ quantity: 0 }, 'one'] });
    assert.deepEqual(
      response.errors.map((error: { field: string }) => error.field),
      ['contact.email', 'lines[1]', 'company', 'lines[0].quantity'],
    );
    assert.deepEqual(response.message.slice(0, 2), ['`contact.email` is missing', '`lines[1]` must be an object']);
    assert.match(response.message[3], /^`lines\[0\]\.quantity` must not be less than 1/);
  });

  it('keeps the message the DTO author wrote for a missing field, as the MCP side does', async () => {
    const response = await refusal({}, body(PaymentDto));
    assert.deepEqual(response.message, ['`payer` must be a JSON object {"name": ..., "email": ...}']);
  });

  it('passes a valid body, transformed into the DTO with its nested instances', async () => {
    const value = await mcpRestValidationPipe().transform(
      { company: 'Acme', contact: { name: 'Ana', email: 'ana@acme.example' }, lines: [{ quantity: 2 }] },
      body(CustomerDto),
    );
    assert.ok(value instanceof CustomerDto);
    assert.ok(value.contact instanceof ContactDto);
    assert.ok(value.lines?.[0] instanceof LineDto);
  });

  it("leaves everything else to Nest's ValidationPipe: primitives, and custom decorators unless asked", async () => {
    const pipe = mcpRestValidationPipe();
    assert.equal(await pipe.transform('7', { type: 'query', metatype: Number, data: 'page' }), 7);
    assert.deepEqual(await pipe.transform({ company: 'Acme' }, { type: 'custom', metatype: CustomerDto }), { company: 'Acme' });
    await assert.rejects(
      mcpRestValidationPipe({ validateCustomDecorators: true }).transform({ company: 'Acme' }, { type: 'custom', metatype: CustomerDto }),
      (error: BadRequestException) => {
        assert.deepEqual((error.getResponse() as Record<string, unknown>).message, ['`contact` is missing']);
        return true;
      },
    );
  });

  it("validates a DTO the MCP layer cannot describe (a recursive one) by Nest's rules alone", async () => {
    const value = await mcpRestValidationPipe().transform({ name: 'root', folders: [{ name: 'docs' }] }, body(FolderDto));
    assert.ok(value.folders[0] instanceof FolderDto);
    const response = await refusal({ folders: [{ name: 3 }] }, body(FolderDto));
    assert.deepEqual(response.message, ['`name` must be a string', '`folders[0].name` must be a string']);
  });
});
