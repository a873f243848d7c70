const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes an `Mcp-Name` header: raw ASCII, or `=?base64?<base64 of UTF-8>?=` for names HTTP
 * headers cannot carry. Returns undefined for a sentinel whose payload is not canonical base64
 * of valid UTF-8.
 */
export function decodeMcpNameHeader(value: string): string | undefined {
  if (!value.startsWith(SENTINEL_PREFIX) || !value.endsWith(SENTINEL_SUFFIX)) return value;
  const payload = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  try {
    return utf8.decode(Buffer.from(payload, 'base64'));
  } catch {
    return undefined;
  }
}
