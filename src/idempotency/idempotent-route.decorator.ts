import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

export const IDEMPOTENT_ROUTE = 'app:idempotentRoute';
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on a response that is the stored answer of an earlier request with the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * A REST write that honours idempotency keys (`RestIdempotencyInterceptor`): the `idempotency_key`
 * body field or the `Idempotency-Key` header. A repeat with the same key and arguments gets the
 * first answer (marked `Idempotent-Replayed: true`) instead of running again.
 */
export function IdempotentRoute(): MethodDecorator {
  return applyDecorators(
    SetMetadata(IDEMPOTENT_ROUTE, true),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description:
        'The idempotency key of this operation (8–128 printable characters, e.g. a UUID), as an alternative to the ' +
        '`idempotency_key` body field (if both are sent they must be equal). Reuse it when you retry: a repeat with the same ' +
        'key and body gets the first answer (header `Idempotent-Replayed: true`) and does not run again; the same key with ' +
        'another body is refused with 409 `idempotency_key_reused`. Failed requests leave the key free.',
      schema: { type: 'string', minLength: 8, maxLength: 128 },
    }),
  );
}
