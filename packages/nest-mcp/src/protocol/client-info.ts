import type { Implementation } from '@modelcontextprotocol/server';
import { HttpStatus } from '@nestjs/common';
import { isPlainObject } from './json-rpc-message.js';
import { McpProtocolError } from './mcp-protocol.error.js';

/** Longest accepted `clientInfo.name` and `.version`, in characters (code points). */
export const CLIENT_INFO_LIMITS = { name: 128, version: 64 } as const;

/**
 * Not printable: C0 and C1 controls (NUL included: PostgreSQL text cannot hold it), lone
 * surrogates, line/paragraph separators, and bidi controls (marks, embeddings, overrides,
 * isolates), which make a name shown to people read differently from what it is.
 * Letters, digits, punctuation and spaces of any script are fine.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\u061C\u200E\u200F\u2028-\u202E\u2066-\u2069]/u;

/**
 * The client's self-description (2026 `_meta["io.modelcontextprotocol/clientInfo"]`, 2025
 * `initialize` `params.clientInfo`), checked before anything stores or shows it: only `name`
 * and `version` are kept, each bounded and printable. Otherwise `-32602` naming the field.
 * Absent (`undefined` or `null`) is fine: clientInfo is recommended, not required.
 *
 * @param field how the message names the field, e.g. `params.clientInfo`
 */
export function parseClientInfo(value: unknown, field: string, httpStatus: number = HttpStatus.OK): Implementation | undefined {
  if (value === undefined || value === null) return undefined;
  const refuse = (detail: string) => McpProtocolError.invalidParams(`Invalid ${field}${detail}`, undefined, httpStatus);
  if (!isPlainObject(value)) throw refuse(': must be an object with "name" and "version" strings');
  const name = checkText(value.name, CLIENT_INFO_LIMITS.name);
  if (name) throw refuse(`.name: ${name}`);
  if (value.version !== undefined) {
    const version = checkText(value.version, CLIENT_INFO_LIMITS.version);
    if (version) throw refuse(`.version: ${version}`);
  }
  return { name: value.name as string, ...(value.version !== undefined ? { version: value.version as string } : {}) } as Implementation;
}

/** Why `value` is not a printable string of at most `max` characters; undefined when it is. */
function checkText(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  // UTF-16 length bounds the code point count from above and from below (at most 2 units each).
  if (value.length > 2 * max || (value.length > max && codePoints(value) > max)) return `must be at most ${max} characters`;
  if (UNPRINTABLE.test(value)) return 'must be printable (no control, bidi-control or lone surrogate characters)';
  return undefined;
}

function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}
