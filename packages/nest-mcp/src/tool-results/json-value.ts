/**
 * A value a handler returned that JSON cannot carry: a circular reference, a `Map` key that
 * cannot be a JSON name, a `toJSON()` or getter that threw. `path` is where it sits (`data.customer.parent`),
 * for the developer's log; the caller is only told that the result could not be sent.
 */
export class JsonConversionError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${problem} at ${path || 'the top of the value'}`);
    this.name = 'JsonConversionError';
  }
}

/**
 * `value` as plain JSON data: what `JSON.stringify` would write, for the values it cannot write
 * too. The layer calls it wherever a handler's value becomes JSON for a client, so a handler
 * shared with REST may return what Prisma and the standard library give it:
 * - `bigint` → its decimal string (JSON numbers are doubles: a number would silently lose digits
 *   above 2^53, and a client parses a string exactly);
 * - `Map` → an object (string, number, bigint and boolean keys become names; any other key, or
 *   two keys that become one name, is an error rather than a silently lost entry);
 * - `Set` → an array;
 * - as `JSON.stringify` does: `toJSON()` honoured (a `Date` becomes its ISO string), `undefined`,
 *   functions and symbols dropped from objects and `null` in arrays, `NaN` and `Infinity` `null`,
 *   only own enumerable string keys kept.
 *
 * A circular reference is an error (`JsonConversionError`, naming the path); a value reached twice
 * without a cycle is written twice, as `JSON.stringify` does. `undefined` when the value itself is
 * one JSON drops.
 */
export function toJsonValue(value: unknown): unknown {
  return new JsonConverter().root(value);
}

type Segment = string | number;

/** One conversion: the path to the value being converted and the objects that contain it. */
class JsonConverter {
  private readonly path: Segment[] = [];
  /** Each object being converted, with the length of its path (to name what a cycle returns to). */
  private readonly ancestors = new Map<object, number>();

  root(value: unknown): unknown {
    try {
      return this.convert(value, '');
    } catch (error) {
      // Nested deeper than the stack allows; JSON.stringify would overflow too. The path is kept
      // as it was when the stack ran out (segments are only removed on the way back up).
      if (error instanceof RangeError) {
        throw new JsonConversionError(formatPath(this.path.slice(0, 16)) + '…', 'a value nested too deeply to be written as JSON');
      }
      throw error;
    }
  }

  private convert(input: unknown, key: string): unknown {
    const value = this.withToJson(input, key);
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value;
      case 'number':
        return Number.isFinite(value) ? value : null;
      case 'bigint':
        return value.toString();
      case 'object':
        return value === null ? null : this.object(value);
      default:
        return undefined; // undefined, functions, symbols
    }
  }

  /** What `toJSON(key)` makes of the value, when it has one (a `Date`, a `Decimal`, a `BigInt.prototype.toJSON` the app set). */
  private withToJson(value: unknown, key: string): unknown {
    if ((typeof value !== 'object' && typeof value !== 'bigint') || value === null) return value;
    const toJson = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJson !== 'function') return value;
    try {
      return toJson.call(value, key);
    } catch (error) {
      throw new JsonConversionError(formatPath(this.path), `its toJSON() threw (${messageOf(error)})`);
    }
  }

  private object(value: object): unknown {
    // Boxed primitives are written as their primitive, as JSON.stringify does.
    if (value instanceof Number || value instanceof String || value instanceof Boolean || value instanceof BigInt) {
      return this.convert(value.valueOf(), '');
    }
    const seenAt = this.ancestors.get(value);
    if (seenAt !== undefined) {
      const target = formatPath(this.path.slice(0, seenAt)) || 'the top of the value';
      throw new JsonConversionError(formatPath(this.path), `a circular reference (back to ${target})`);
    }
    this.ancestors.set(value, this.path.length);
    const converted =
      value instanceof Map
        ? this.map(value)
        : value instanceof Set
          ? this.items([...value])
          : Array.isArray(value)
            ? this.items(value)
            : this.properties(value);
    this.ancestors.delete(value);
    return converted;
  }

  private items(items: readonly unknown[]): unknown[] {
    const out = new Array<unknown>(items.length);
    for (let index = 0; index < items.length; index++) {
      this.path.push(index);
      out[index] = this.convert(items[index], String(index)) ?? null;
      this.path.pop();
    }
    return out;
  }

  private properties(value: object): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      this.path.push(key);
      const converted = this.convert(this.read(value, key), key);
      if (converted !== undefined) setProperty(out, key, converted);
      this.path.pop();
    }
    return out;
  }

  private map(value: Map<unknown, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const names = new Set<string>();
    for (const [key, item] of value) {
      const name = mapKeyName(key);
      if (name === undefined) {
        throw new JsonConversionError(
          formatPath(this.path),
          `a Map key that is ${describe(key)} (only string, number, bigint and boolean keys become JSON names)`,
        );
      }
      if (names.has(name)) {
        throw new JsonConversionError(formatPath(this.path), `two Map keys that both become the name ${JSON.stringify(name)}`);
      }
      names.add(name);
      this.path.push(name);
      const converted = this.convert(item, name);
      if (converted !== undefined) setProperty(out, name, converted);
      this.path.pop();
    }
    return out;
  }

  /** A property through its getter, which may throw (a lazy relation, a revoked proxy). */
  private read(value: object, key: string): unknown {
    try {
      return (value as Record<string, unknown>)[key];
    } catch (error) {
      throw new JsonConversionError(formatPath(this.path), `reading it threw (${messageOf(error)})`);
    }
  }
}

function mapKeyName(key: unknown): string | undefined {
  switch (typeof key) {
    case 'string':
      return key;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(key);
    default:
      return undefined;
  }
}

/** `out[key] = value`, also for a key named `__proto__`, which an assignment would take for the prototype. */
function setProperty(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `data.customer.parent`, `data.items[3]`, `data["first name"]`. */
function formatPath(path: readonly Segment[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) text += text ? `.${segment}` : segment;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

function describe(key: unknown): string {
  if (key === null || key === undefined) return String(key);
  if (typeof key === 'object') return `an object (${key.constructor?.name ?? 'Object'})`;
  return `a ${typeof key}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
