import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { IdempotencyKey } from './idempotency-key.js';

class RequiredKeyDto {
  @IdempotencyKey()
  idempotency_key: string;
}

class OptionalKeyDto {
  @IdempotencyKey({ optional: true })
  idempotency_key?: string;
}

const messages = async (dto: new () => object, value: unknown) => {
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
