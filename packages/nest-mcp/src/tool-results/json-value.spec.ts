import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonConversionError, toJsonValue } from './json-value.js';

/** The error `toJsonValue` throws for `value`. */
function failure(value: unknown): JsonConversionError {
  try {
    toJsonValue(value);
  } catch (error) {
    assert.ok(error instanceof JsonConversionError, `a JsonConversionError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a JsonConversionError');
}

describe('toJsonValue', () => {
  it('writes a bigint as its decimal string, with every digit', () => {
    assert.deepEqual(toJsonValue({ id: 9007199254740993n, small: -5n }), { id: '9007199254740993', small: '-5' });
    assert.equal(toJsonValue(12n), '12');
  });

  it('writes a Map as an object, its keys as names', () => {
    const totals = new Map<unknown, unknown>([
      ['eur', 10n],
      [7, { paid: true }],
      [8n, 'x'],
    ]);
    assert.deepEqual(toJsonValue({ totals }), { totals: { eur: '10', 7: { paid: true }, 8: 'x' } });
  });

  it('refuses a Map whose keys cannot be names, or become the same name, rather than lose entries', () => {
    const objectKey = failure({ data: { byCustomer: new Map([[{ id: 1 }, 'a']]) } });
    assert.equal(objectKey.path, 'data.byCustomer');
    assert.match(objectKey.message, /a Map key that is an object \(Object\)/);
    const colliding = failure(
      new Map<unknown, unknown>([
        [1, 'a'],
        ['1', 'b'],
      ]),
    );
    assert.match(colliding.message, /two Map keys that both become the name "1"/);
  });

  it('writes a Set as an array', () => {
    assert.deepEqual(toJsonValue({ tags: new Set(['a', 2n]) }), { tags: ['a', '2'] });
  });

  it('writes what JSON.stringify writes for every value it can write', () => {
    const date = new Date('2026-01-02T03:04:05.000Z');
    class Invoice {
      total = 10;
      method() {}
    }
    const value = {
      date,
      invalid: new Date(NaN),
      invoice: new Invoice(),
      decimal: { toJSON: () => '10.50' },
      skipped: undefined,
      fn: () => 1,
      sym: Symbol('s'),
      list: [undefined, () => 1, Symbol('s'), NaN, Infinity, 0],
      boxed: [new Number(3), new String('s'), new Boolean(false)],
      nested: { deep: [{ a: null }] },
      error: new Error('not enumerable'),
      text: 'ñ "quoted" \u2028',
    };
    assert.deepEqual(JSON.stringify(toJsonValue(value)), JSON.stringify(value));
    assert.deepEqual(toJsonValue(value), JSON.parse(JSON.stringify(value)));
    assert.equal(toJsonValue(undefined), undefined);
    assert.equal(
      toJsonValue(() => 1),
      undefined,
    );
  });

  it('passes toJSON its key, as JSON.stringify does', () => {
    const keys: string[] = [];
    const spy = {
      toJSON(key: string) {
        keys.push(key);
        return key;
      },
    };
    assert.deepEqual(toJsonValue({ a: spy, list: [spy] }), { a: 'a', list: ['0'] });
    assert.deepEqual(keys, ['a', '0']);
  });

  it('keeps an own __proto__ key as a key, without touching the prototype', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":1}');
    const converted = toJsonValue(value) as Record<string, unknown>;
    assert.equal(JSON.stringify(converted), '{"__proto__":{"polluted":true},"a":1}');
    assert.equal(Object.getPrototypeOf(converted), Object.prototype);
    assert.equal((converted as { polluted?: boolean }).polluted, undefined);
  });

  it('writes a value reached twice without a cycle twice', () => {
    const shared = { id: 1 };
    assert.deepEqual(toJsonValue({ a: shared, b: [shared] }), { a: { id: 1 }, b: [{ id: 1 }] });
  });

  it('refuses a circular reference, naming where it is and what it returns to', () => {
    const customer: Record<string, unknown> = { id: 1 };
    customer.parent = customer;
    const error = failure({ data: { customer } });
    assert.equal(error.path, 'data.customer.parent');
    assert.equal(error.message, 'a circular reference (back to data.customer) at data.customer.parent');
    const list: unknown[] = [];
    list.push({ owner: list });
    assert.equal(failure({ 'line items': list }).path, '["line items"][0].owner');
    const map = new Map<string, unknown>();
    map.set('self', map);
    assert.equal(failure(map).path, 'self');
  });

  it('names the path of a toJSON or getter that throws', () => {
    const error = failure({
      rows: [
        {
          toJSON() {
            throw new Error('boom');
          },
        },
      ],
    });
    assert.equal(error.path, 'rows[0]');
    assert.match(error.message, /its toJSON\(\) threw \(boom\)/);
    const getter = failure({
      get lazy() {
        throw new Error('not loaded');
      },
    });
    assert.equal(getter.path, 'lazy');
  });
});
