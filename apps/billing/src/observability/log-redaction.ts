/**
 * What a log line may never carry: credentials and file contents. Applied to every message,
 * structured field and stack the application logger prints (see `ObservabilityLogger`).
 * Two layers: keys that name a secret (`password`, `token`, `authorization`, `cookie`, …) have
 * their values replaced wherever they appear in a logged object, and secrets that travel inside
 * free text (a personal access token, a bearer credential, a JWT, `key=value` pairs, a long
 * base64 run) are cut out of every string.
 */
const SECRET_KEY = /pass(word|wd|phrase)?|secret|token|api[-_]?key|authorization|credential|cookie|private[-_]?key|session/i;
const BULKY_KEY = /_base64$/i;
/** Keys that look secret but are not, and help to follow a request. */
const PUBLIC_KEYS = new Set(['idempotency_key', 'tokenId', 'token_id']);
const MAX_DEPTH = 8;
const MAX_ITEMS = 100;
export const REDACTED = '[REDACTED]';

const TEXT_RULES: Array<[RegExp, string]> = [
  // Authorization schemes, whatever the credential.
  [/\b(Bearer|Basic|Digest)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  // Personal access tokens (src/identity/token-secret.ts), wherever else they appear.
  [/mcp_pat_[A-Za-z0-9_-]+/g, `mcp_pat_${REDACTED}`],
  // JWTs (three base64url parts, the first two JSON objects).
  [/eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
  // key=value, key: value and "key":"value" where the key names a secret.
  [
    /((?:["']?)(?:[\w-]*(?:password|passwd|secret|token|api[-_]?key|authorization|cookie|credential|content_base64))(?:["']?)\s*[:=]\s*)("(?:[^"\\]|\\.)*"|'[^']*'|[^\s,;&}\]]+)/gi,
    `$1"${REDACTED}"`,
  ],
  // Long base64 runs: file contents quoted in an error message.
  [/[A-Za-z0-9+/]{160,}={0,2}/g, '[base64 omitted]'],
];

/**
 * A text that matches none of these words, and is shorter than a base64 run worth cutting, holds
 * nothing a rule above would change: every rule needs one of them (`passw` for password/passwd,
 * `api` for the api keys, `base64` for content_base64; case-insensitive is wider than each rule).
 * Most log text (access lines, paths, ids) is passed through on this one test.
 */
const MAY_HOLD_SECRET = /bearer|basic|digest|mcp_pat_|eyJ|passw|secret|token|api|authorization|cookie|credential|base64/i;
const SHORTEST_BASE64_RUN = 160;

/** Cuts secrets out of free text. */
export function redactText(text: string): string {
  if (text.length < SHORTEST_BASE64_RUN && !MAY_HOLD_SECRET.test(text)) return text;
  let result = text;
  for (const [pattern, replacement] of TEXT_RULES) result = result.replace(pattern, replacement);
  return result;
}

/** A copy of `value` fit for a log line: secrets and file contents replaced, depth and breadth bounded. */
export function redactValue(value: unknown, key = '', depth = 0, seen = new WeakSet<object>()): unknown {
  if (key && !PUBLIC_KEYS.has(key) && SECRET_KEY.test(key)) return REDACTED;
  if (typeof value === 'string') {
    if (key && BULKY_KEY.test(key)) return `[${Buffer.byteLength(value)} bytes omitted]`;
    return redactText(value);
  }
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return redactError(value);
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const items = value.slice(0, MAX_ITEMS).map((item) => redactValue(item, '', depth + 1, seen));
      if (value.length > MAX_ITEMS) items.push(`[${value.length - MAX_ITEMS} more]`);
      return items;
    }
    if (value instanceof Map || value instanceof Set || Buffer.isBuffer(value) || ArrayBuffer.isView(value)) {
      return `[${value.constructor.name}]`;
    }
    const copy: Record<string, unknown> = {};
    let count = 0;
    for (const [k, v] of Object.entries(value)) {
      if (++count > MAX_ITEMS) {
        copy['…'] = `[${Object.keys(value).length - MAX_ITEMS} more keys]`;
        break;
      }
      const safe = redactValue(v, k, depth + 1, seen);
      // defineProperty: a key named "__proto__" stays an own property, never a prototype.
      if (k === '__proto__') Object.defineProperty(copy, k, { value: safe, enumerable: true, writable: true, configurable: true });
      else copy[k] = safe;
    }
    return copy;
  } finally {
    seen.delete(value);
  }
}

/** An error with its message and stack redacted (same class name, so the output still reads right). */
export function redactError(error: Error): Error {
  const copy = new Error(redactText(error.message));
  copy.name = error.name;
  copy.stack = error.stack === undefined ? undefined : redactText(error.stack);
  return copy;
}
