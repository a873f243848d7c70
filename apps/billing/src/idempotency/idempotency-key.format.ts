/** Printable ASCII without spaces: safe to log and to compare. The same rule for the body field and the header. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]+$/;
export const IDEMPOTENCY_KEY_LENGTH = { min: 8, max: 128 } as const;

export function isIdempotencyKey(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length >= IDEMPOTENCY_KEY_LENGTH.min &&
    value.length <= IDEMPOTENCY_KEY_LENGTH.max &&
    IDEMPOTENCY_KEY_PATTERN.test(value)
  );
}
