import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileRawInputSchema } from './raw-json-schema.js';

/** The conformance suite's schema: what a class-validator DTO cannot express. */
const contact = () => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
  },
  properties: {
    name: { type: 'string', 'x-mcp-header': 'Name' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string', format: 'email' },
    lines: { type: 'array', items: { type: 'object', properties: { amount: { type: 'integer', minimum: 1 } } } },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
});

describe('compileRawInputSchema: the boot checks', () => {
  it('compiles a 2020-12 schema with $defs, $anchor, allOf/anyOf, if/then/else and unknown annotations (x-mcp-header)', () => {
    const schema = contact();
    const raw = compileRawInputSchema(schema);
    assert.equal(raw.schema, schema, 'the very object given, never a copy');
    assert.deepEqual(raw.required, []);
  });

  it('compiles each schema object once', () => {
    const schema = contact();
    assert.equal(compileRawInputSchema(schema), compileRawInputSchema(schema));
  });

  it('keeps the root `required` for the comparison with a DTO', () => {
    assert.deepEqual(compileRawInputSchema({ type: 'object', required: ['a', 'b'] }).required, ['a', 'b']);
  });

  it('refuses a root that is not an object schema', () => {
    assert.throws(() => compileRawInputSchema({ type: 'array' }), /its root needs `"type": "object"`, got "array"/);
    assert.throws(() => compileRawInputSchema({ properties: {} }), /its root needs `"type": "object"`, got none/);
    assert.throws(() => compileRawInputSchema([]), /inputSchema must be a JSON Schema object, got an array/);
  });

  it('refuses a $ref that leaves the document, saying where it is and how to keep it inside', () => {
    const schema = { type: 'object', properties: { address: { $ref: 'https://example.com/address.json' } } };
    assert.throws(
      () => compileRawInputSchema(schema),
      (error: Error) =>
        error.message.includes('$ref "https://example.com/address.json" at #/properties/address/$ref') &&
        error.message.includes('the layer never fetches a schema') &&
        error.message.includes('#/$defs/<name>'),
    );
    assert.throws(() => compileRawInputSchema({ type: 'object', $defs: { a: { $ref: 'other.json#/x' } } }), /refers outside itself/);
  });

  it('accepts references by pointer and by anchor, and a "$ref" key inside data (const, enum, default, examples)', () => {
    compileRawInputSchema({
      type: 'object',
      $defs: { a: { $anchor: 'a', type: 'string' } },
      properties: { x: { $ref: '#a' }, y: { $ref: '#/$defs/a' }, z: { const: { $ref: 'https://example.com' } } },
    });
  });

  it("refuses a schema the validator refuses, with the validator's message", () => {
    assert.throws(
      () => compileRawInputSchema({ type: 'object', properties: { a: { type: 'text' } } }),
      /inputSchema is not a valid JSON Schema 2020-12: schema is invalid: data\/properties\/a\/type/,
    );
    assert.throws(
      () => compileRawInputSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }),
      /inputSchema is not a valid JSON Schema 2020-12: no schema with key or ref "http:\/\/json-schema.org\/draft-07\/schema#"/,
    );
    assert.throws(
      () => compileRawInputSchema({ type: 'object', required: 'a' }),
      /inputSchema.required must be an array of property names/,
    );
  });
});

describe('RawInputSchema.violations: the validator, in the words DTO violations use', () => {
  const raw = compileRawInputSchema(contact());

  it('accepts valid arguments', () => {
    assert.deepEqual(raw.violations({ contactMethod: 'phone', phone: '555', address: { city: 'Lisbon' } }), []);
    assert.deepEqual(raw.violations({ email: 'not checked: format is an annotation' }), []);
  });

  it('names an unknown property itself, as a DTO refusal does', () => {
    assert.deepEqual(raw.violations({ email: 'a@b.c', nickname: 'x' }), [
      { field: 'nickname', message: '`nickname` is not an accepted argument; remove it' },
    ]);
  });

  it('names nested fields by their dotted path, array items by index', () => {
    assert.deepEqual(raw.violations({ email: 'a@b.c', address: { city: 3 }, lines: [{ amount: 1 }, { amount: 0 }] }), [
      { field: 'address.city', message: '`address.city` must be string' },
      { field: 'lines[1].amount', message: '`lines[1].amount` must be >= 1' },
    ]);
  });

  it('says the alternatives of a failed anyOf in one violation, and a failed then-branch by its missing property', () => {
    assert.deepEqual(raw.violations({ contactMethod: 'phone' }), [
      {
        field: '',
        message:
          'the arguments must match at least one of the alternatives its schema offers: (`phone` is missing) or (`email` is missing)',
      },
      { field: 'phone', message: '`phone` is missing' },
    ]);
  });

  it('lists the allowed values of an enum and a const', () => {
    assert.deepEqual(raw.violations({ email: 'a@b.c', contactMethod: 'fax' }), [
      { field: 'contactMethod', message: '`contactMethod` must be one of "phone", "email"' },
    ]);
    const constant = compileRawInputSchema({ type: 'object', properties: { v: { const: 2 } } });
    assert.deepEqual(constant.violations({ v: 3 }), [{ field: 'v', message: '`v` must be 2' }]);
  });

  it('says that a oneOf matched more than one alternative', () => {
    const one = compileRawInputSchema({ type: 'object', oneOf: [{ required: ['a'] }, { required: ['b'] }] });
    assert.deepEqual(one.violations({ a: 1, b: 2 }), [
      { field: '', message: 'the arguments must match exactly one of the alternatives its schema offers, and matches more than one' },
    ]);
  });
});
