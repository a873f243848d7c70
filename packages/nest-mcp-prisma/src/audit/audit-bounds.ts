/**
 * What makes any value storable in an audit row, so that every call leaves one whatever the
 * client sent: PostgreSQL `text` and `jsonb` refuse NUL (and `jsonb` refuses escaped lone
 * surrogates), and a B-tree index entry (mcp_audit_events.target) must fit in ~2.7 kB.
 */

/** `target` is indexed: 512 UTF-16 units are at most ~1.5 kB of UTF-8, with room for the marker. */
export const MAX_TARGET_CHARS = 512;
/** Other free-text columns (client name and version are already checked at the door: 128 / 64). */
export const MAX_TEXT_CHARS = 256;
/** Serialized arguments beyond this are replaced by a marker and a preview. */
export const MAX_ARGUMENTS_JSON_CHARS = 32_768;
const ARGUMENTS_PREVIEW_CHARS = 2_000;

/** NUL, and a surrogate without its pair. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');
/** The same in JSON text, where JSON.stringify writes them as escapes (a false positive on `\\u0000` only costs the slow path). */
const UNSTORABLE_IN_JSON = /\\u0000|\\ud[89a-f]/i;

/** `value` without NUL, lone surrogates replaced by U+FFFD. */
export function storableString(value: string): string {
  return UNSTORABLE.test(value) ? value.replace(UNSTORABLE_ALL, (found) => (found === '\u0000' ? '' : '\uFFFD')) : value;
}

/** The first `max` UTF-16 units of `value`, one less if the cut would split a surrogate pair. */
export function cutText(value: string, max: number): string {
  if (value.length <= max) return value;
  const last = value.charCodeAt(max - 1);
  return value.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** A text column's value: storable, and cut to `max` with a marker saying how long it was. */
export function boundedText(value: string | undefined, max = MAX_TEXT_CHARS): string | null {
  if (value === undefined) return null;
  const clean = storableString(value);
  return clean.length > max ? `${cutText(clean, max)}… [${clean.length} chars]` : clean;
}

/** The `jsonb` text of `value` (arguments): storable, and bounded with a marker and a preview. */
export function boundedJson(value: unknown): string | null {
  if (value === undefined) return null;
  let json = JSON.stringify(value);
  if (json === undefined) return null;
  if (UNSTORABLE_IN_JSON.test(json)) json = JSON.stringify(storableJson(value));
  if (json.length <= MAX_ARGUMENTS_JSON_CHARS) return json;
  return JSON.stringify({
    '[truncated]': `${json.length} chars of JSON; the first ${ARGUMENTS_PREVIEW_CHARS}: ${cutText(json, ARGUMENTS_PREVIEW_CHARS)}`,
  });
}

/** A copy of a JSON value whose strings (keys too) are storable. */
function storableJson(value: unknown): unknown {
  if (typeof value === 'string') return storableString(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableString(key), storableJson(item)]));
  }
  return value;
}
