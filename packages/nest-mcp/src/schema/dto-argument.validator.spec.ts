import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'class-transformer';
import { IsInt, IsString, Min, ValidateNested } from 'class-validator';
import { validateArguments } from './dto-argument.validator.js';

class LineDto {
  @IsInt()
  @Min(1)
  quantity: number;
}

class OrderDto {
  @IsString()
  customer: string;

  @ValidateNested({ each: true })
  @Type(() => LineDto)
  lines: LineDto[];
}

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
    assert.match(
      result.violations.find((v) => v.field === 'lines[0].quantity')!.message,
      /^`lines\[0\]\.quantity` must not be less than 1/,
    );
    assert.match(result.violations.find((v) => v.field === 'surprise')!.message, /not an accepted argument; remove it/);
  });

  it('accepts unknown fields (and drops them) when configured to', async () => {
    const result = await validateArguments(OrderDto, { customer: 'c', lines: [], extra: 1 }, { forbidUnknown: false });
    assert.ok(result.ok);
    assert.equal((result.value as unknown as Record<string, unknown>).extra, undefined);
  });

  it('says "missing" for a required property, nested ones included, instead of its first constraint', async () => {
    const result = await validateArguments(OrderDto, { lines: [{}] }, { forbidUnknown: true });
    assert.ok(!result.ok);
    assert.deepEqual(result.violations, [
      { field: 'customer', message: '`customer` is missing' },
      { field: 'lines[0].quantity', message: '`lines[0].quantity` is missing' },
    ]);
  });

  it('holds a @ValidateNested() property without @IsOptional() to being present, as its schema says', async () => {
    const result = await validateArguments(OrderDto, { customer: 'c' }, { forbidUnknown: true });
    assert.ok(!result.ok);
    assert.deepEqual(result.violations, [{ field: 'lines', message: '`lines` is missing' }]);
  });

  it('says "must be an array" / "must be an object" where nested DTOs are expected', async () => {
    const notArray = await validateArguments(OrderDto, { customer: 'c', lines: 'two' }, { forbidUnknown: true });
    assert.ok(!notArray.ok);
    assert.deepEqual(notArray.violations, [{ field: 'lines', message: '`lines` must be an array' }]);
    const notObject = await validateArguments(OrderDto, { customer: 'c', lines: ['one'] }, { forbidUnknown: true });
    assert.ok(!notObject.ok);
    assert.deepEqual(notObject.violations, [{ field: 'lines[0]', message: '`lines[0]` must be an object' }]);
  });

  it('refuses arguments that are not an object', async () => {
    for (const args of [null, [], 'x', 3]) {
      const result = await validateArguments(OrderDto, args, { forbidUnknown: true });
      assert.ok(!result.ok);
      assert.equal(result.violations[0].message, 'arguments must be a JSON object');
    }
  });
});
