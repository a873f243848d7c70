import { createHash } from 'node:crypto';

/**
 * SHA-256 of the arguments in canonical JSON (object keys sorted at every depth), so that the
 * same call hashes the same whatever order the client wrote its keys in. What binds a
 * `requestState`, an approval and an idempotency key to one exact call.
 */
export function argumentsHash(args: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(args ?? {}))
    .digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
