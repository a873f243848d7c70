import { cutText } from './audit-bounds.js';

const SECRET_KEY = /pass(word)?|secret|token|api[-_]?key|authorization|credential|cookie|private[-_]?key/i;
const BULKY_KEY = /_base64$|^content$/i;
const MAX_STRING = 2_000;

/**
 * A copy of tool arguments that is safe to keep: secrets replaced by "[REDACTED]", file contents
 * by their size, long strings cut. `idempotency_key` is not a secret and is kept.
 */
export function redactArguments(value: unknown, key = ''): unknown {
  if (key && key !== 'idempotency_key' && SECRET_KEY.test(key)) return '[REDACTED]';
  if (typeof value === 'string') {
    if (key && BULKY_KEY.test(key)) return `[${Buffer.byteLength(value)} bytes omitted]`;
    return value.length > MAX_STRING ? `${cutText(value, MAX_STRING)}… [${value.length} chars]` : value;
  }
  if (Array.isArray(value)) return value.map((item) => redactArguments(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactArguments(v, k)]));
  }
  return value;
}
