import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IDEMPOTENCY_KEY_LENGTH } from './idempotency-key.format.js';
import { IDEMPOTENCY_KEY_HEADER, RestIdempotencyInterceptor } from './rest-idempotency.interceptor.js';

export { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from './rest-idempotency.interceptor.js';

/**
 * A REST write that honours idempotency keys (`RestIdempotencyInterceptor`): the `idempotency_key`
 * body field or the `Idempotency-Key` header. A repeat with the same key and arguments gets the
 * first answer (marked `Idempotent-Replayed: true`) instead of running again. The interceptor is
 * attached to these routes only: other requests pay for no interceptor chain.
 */
export function IdempotentRoute(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(RestIdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description:
        'The idempotency key of this operation (8–128 printable characters, e.g. a UUID), as an alternative to the ' +
        '`idempotency_key` body field (if both are sent they must be equal). Reuse it when you retry: a repeat with the same ' +
        'key and body gets the first answer (header `Idempotent-Replayed: true`) and does not run again; the same key with ' +
        'another body is refused with 409 `idempotency_key_reused`. Failed requests leave the key free.',
      schema: { type: 'string', minLength: IDEMPOTENCY_KEY_LENGTH.min, maxLength: IDEMPOTENCY_KEY_LENGTH.max },
    }),
  );
}
