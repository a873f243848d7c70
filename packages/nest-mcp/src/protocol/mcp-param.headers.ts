import type { IncomingHttpHeaders } from 'node:http';
import type { McpHeaderParameter } from '../schema/header-parameters.js';
import { isPlainObject } from './json-rpc-message.js';
import { decodeMcpNameHeader } from './mcp-name.header.js';
import { McpProtocolError } from './mcp-protocol.error.js';
import { headerValue } from './protocol-version.js';

/** What a header value may hold as sent (RFC 9110 field value): visible ASCII, space and tab; anything else travels as `=?base64?…?=`. */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;
/** A JSON number, for comparing an integer argument numerically (`42.0` is `42`), never `0x2a`, `''` or `Infinity`. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** Values quoted in an error are cut to this many characters: a refusal never echoes a huge argument. */
const QUOTED_LENGTH = 64;

/**
 * Checks the `Mcp-Param-<name>` headers of a `tools/call` against its arguments (docs/tools.md,
 * "Header parameters"). Each header sent is decoded (`=?base64?…?=`: canonical base64 of UTF-8;
 * otherwise the value as sent, whitespace around it trimmed) and must equal the argument: a
 * string as is, an integer numerically, a boolean as `true` / `false`. A header sent for an
 * argument the body does not carry is refused too: whoever routed or authorized on the header
 * acted on a value the tool will not see. With `required` (the 2026-07-28 era) an argument the
 * body carries needs its header; older clients know nothing of these headers, so for them a
 * missing header is fine. An argument that is not a string, number or boolean is left to the
 * argument validation, which refuses it (clients send no header for it).
 */
export function checkParamHeaders(
  parameters: readonly McpHeaderParameter[],
  args: unknown,
  headers: IncomingHttpHeaders,
  required: boolean,
): void {
  for (const parameter of parameters) {
    const header = `Mcp-Param-${parameter.name}`;
    const argument = `arguments.${parameter.path.join('.')}`;
    const sent = headerValue(headers, header.toLowerCase());
    const value = argumentAt(args, parameter.path);
    const mirrored = headerTextOf(value);
    if (sent === undefined) {
      if (required && mirrored !== undefined) {
        throw McpProtocolError.headerMismatch(`${header} is required and must carry ${argument} (${quote(mirrored)})`);
      }
      continue;
    }
    if (!FIELD_VALUE.test(sent)) {
      throw McpProtocolError.headerMismatch(
        `${header} contains characters outside visible ASCII: send a value like that as =?base64?<base64 of its UTF-8>?=`,
      );
    }
    const decoded = decodeMcpNameHeader(sent);
    if (decoded === undefined) {
      throw McpProtocolError.headerMismatch(`${header} has an invalid =?base64?…?= value (canonical base64 of UTF-8 expected)`);
    }
    if (value === undefined || value === null) {
      throw McpProtocolError.headerMismatch(`${header} is ${quote(decoded)} but the body has no ${argument}: send both or neither`);
    }
    if (!matches(decoded, value)) {
      throw McpProtocolError.headerMismatch(
        `${header} is ${quote(decoded)} but ${argument} is ${mirrored === undefined ? 'not a string, integer or boolean' : quote(mirrored)}`,
      );
    }
  }
}

/** The argument at a chain of property names; undefined when a step is not an object. */
export function argumentAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (!isPlainObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** The text a client puts in the header for this argument; undefined when it sends none (null, absent, not a primitive, not a safe number). */
export function headerTextOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value)))
    return String(value);
  return undefined;
}

function matches(decoded: string, value: unknown): boolean {
  if (typeof value === 'string') return decoded === value;
  if (typeof value === 'boolean') return decoded === String(value);
  if (typeof value === 'number') return JSON_NUMBER.test(decoded) && Number(decoded) === value;
  return false;
}

function quote(text: string): string {
  const shown = text.length > QUOTED_LENGTH ? `${text.slice(0, QUOTED_LENGTH)}…` : text;
  return JSON.stringify(shown);
}
