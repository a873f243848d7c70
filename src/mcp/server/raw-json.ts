import { randomUUID } from 'node:crypto';

/**
 * JSON text serialized once (e.g. a tool definition at bootstrap) and spliced verbatim into an
 * answer, so a large `tools/list` page costs a string join rather than a fresh serialization.
 */
export class RawJson {
  constructor(readonly json: string) {}

  /** A JSON array of already-serialized items. */
  static array(items: readonly string[]): RawJson {
    return new RawJson(`[${items.join(',')}]`);
  }
}

const MARKER = `__mcp_raw_${randomUUID().replaceAll('-', '')}_`;
const MARKER_PATTERN = new RegExp(`"${MARKER}(\\d+)"`, 'g');

/** `JSON.stringify(value)`, with every `RawJson` inside written as its text. */
export function stringifyWithRaw(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => (item instanceof RawJson ? `${MARKER}${raws.push(item.json) - 1}` : item));
  return raws.length ? text.replace(MARKER_PATTERN, (_match, index: string) => raws[Number(index)]) : text;
}
