import { randomUUID } from 'node:crypto';

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * JSON encoded once (e.g. a tool definition at bootstrap) and copied verbatim into an answer as
 * bytes, so a large `tools/list` page costs a memory copy rather than a fresh serialization.
 */
export class RawJson {
  private constructor(readonly chunks: readonly Buffer[]) {}

  /**
   * Inside `encodeWithRaw`: a marker the encoder replaces with the bytes. Elsewhere (a snapshot, a
   * log line): the JSON value itself.
   */
  toJSON(): unknown {
    if (encoding) return `${MARKER}${encoding.push(this) - 1}`;
    return JSON.parse(Buffer.concat(this.chunks).toString('utf8'));
  }

  static of(value: unknown): Buffer {
    return Buffer.from(JSON.stringify(value));
  }

  /** A JSON array of already-encoded items. */
  static array(items: readonly Buffer[]): RawJson {
    const chunks: Buffer[] = [OPEN];
    items.forEach((item, index) => chunks.push(...(index ? [COMMA, item] : [item])));
    chunks.push(CLOSE);
    return new RawJson(chunks);
  }
}

const MARKER = `__mcp_raw_${randomUUID().replaceAll('-', '')}_`;
const MARKER_PATTERN = new RegExp(`"${MARKER}(\\d+)"`, 'g');

/** The `RawJson` values met by the `JSON.stringify` running in `encodeWithRaw` (it is synchronous). */
let encoding: RawJson[] | undefined;

/**
 * The UTF-8 JSON of `value`, with every `RawJson` inside written as its bytes. `RawJson.toJSON`
 * marks them: a replacer function would be called for every key of every answer.
 */
export function encodeWithRaw(value: unknown): Buffer {
  const raws: RawJson[] = [];
  const outer = encoding;
  encoding = raws;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    encoding = outer;
  }
  if (!raws.length) return Buffer.from(text);
  const parts: Buffer[] = [];
  let last = 0;
  for (const match of text.matchAll(MARKER_PATTERN)) {
    parts.push(Buffer.from(text.slice(last, match.index)), ...raws[Number(match[1])].chunks);
    last = match.index + match[0].length;
  }
  parts.push(Buffer.from(text.slice(last)));
  return Buffer.concat(parts);
}
