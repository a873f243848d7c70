import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { IDEMPOTENCY_KEY_LENGTH, IDEMPOTENCY_KEY_PATTERN } from '../../idempotency/idempotency-key.format.js';

export { IDEMPOTENCY_KEY_PATTERN };

export const IDEMPOTENCY_KEY_DESCRIPTION =
  'A key you choose for this one operation (8–128 printable characters, e.g. a UUID). Reuse the same key when you retry ' +
  'the same call after a timeout or an error; use a new key for a new operation.';

export interface IdempotencyKeyOptions {
  /** Default `IDEMPOTENCY_KEY_DESCRIPTION`. */
  description?: string;
  example?: string;
  /** Tools whose retries are harmless may leave the key out; money-moving ones require it. */
  optional?: boolean;
}

/**
 * The `idempotency_key` property of a write: one validation (and so one schema: string,
 * 8–128, printable ASCII) for every DTO that takes it. A repeated key replays the stored answer
 * (see `src/idempotency/`); REST routes taking it are marked `@IdempotentRoute()`, which also accepts the
 * `Idempotency-Key` header.
 */
export function IdempotencyKey(options: IdempotencyKeyOptions = {}): PropertyDecorator {
  const documented = {
    description: options.description ?? IDEMPOTENCY_KEY_DESCRIPTION,
    ...(options.example ? { example: options.example } : {}),
  };
  // Applied in this order, as stacked decorators are applied bottom-up: the type check is
  // registered first, so its message is the one a caller sees first.
  return applyDecorators(
    IsString({ message: 'idempotency_key must be a string of 8–128 characters; reuse the same key when you retry' }),
    Matches(IDEMPOTENCY_KEY_PATTERN, { message: 'idempotency_key must be printable ASCII without spaces (a UUID works)' }),
    Length(IDEMPOTENCY_KEY_LENGTH.min, IDEMPOTENCY_KEY_LENGTH.max, {
      message: 'idempotency_key must be 8–128 characters; reuse the same key when you retry',
    }),
    ...(options.optional ? [IsOptional(), ApiPropertyOptional(documented)] : [ApiProperty(documented)]),
  );
}
