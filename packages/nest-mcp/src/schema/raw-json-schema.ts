import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FieldViolation } from './dto-argument.validator.js';

/**
 * A tool's input schema written by hand, in JSON Schema 2020-12 (`@McpTool({ inputSchema })`):
 * what a class-validator DTO cannot say (`$defs` and `$ref`, `allOf`/`anyOf`/`oneOf`,
 * `if`/`then`/`else`, `dependentRequired`, …). Its root is an object schema (`type: "object"`).
 * It is published in `tools/list` exactly as given and enforced on every call (docs/tools.md).
 */
export type McpInputJsonSchema = { readonly type: 'object' } & { readonly [keyword: string]: unknown };

/** A raw input schema, checked and compiled once at boot. */
export interface RawInputSchema {
  /** The schema as the decorator was given it: the very object `tools/list` publishes. */
  readonly schema: McpInputJsonSchema;
  /** The root's `required`: what a DTO given beside the schema must require too. */
  readonly required: readonly string[];
  /** What is wrong with `args` (a JSON object), in the words DTO violations use; empty when they are valid. */
  violations(args: Record<string, unknown>): FieldViolation[];
}

/** Each schema object is compiled once, whichever application (or test) boots it. */
const compiled = new WeakMap<object, RawInputSchema>();

/**
 * `schema` checked and compiled, or an error that says what to fix (the caller prefixes the
 * method): not an object schema, a `$ref` that leaves the document (the layer never fetches a
 * schema: every reference is resolved inside the one given), or a schema the 2020-12 validator
 * refuses (its message kept). Unknown keywords are annotations and pass (`x-mcp-header`); `format`
 * is an annotation too, as 2020-12 defines it by default: it is published, not enforced.
 */
export function compileRawInputSchema(schema: unknown): RawInputSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new Error(`inputSchema must be a JSON Schema object, got ${Array.isArray(schema) ? 'an array' : typeof schema}`);
  }
  const cached = compiled.get(schema);
  if (cached) return cached;
  const root = schema as Record<string, unknown>;
  if (root.type !== 'object') {
    throw new Error(
      `inputSchema must describe the arguments object: its root needs \`"type": "object"\`, got ${JSON.stringify(root.type) ?? 'none'}`,
    );
  }
  const outside = externalReferences(root, '#');
  if (outside.length) {
    throw new Error(
      `inputSchema refers outside itself (${outside.join(', ')}); the layer never fetches a schema. ` +
        'Put the referenced schema under `$defs` and point at it with `#/$defs/<name>` (or an `$anchor`: `#<anchor>`)',
    );
  }
  const required = root.required;
  if (required !== undefined && !(Array.isArray(required) && required.every((name) => typeof name === 'string'))) {
    throw new Error('inputSchema.required must be an array of property names');
  }
  let validate: ValidateFunction;
  try {
    // One validator per schema: two tools may declare the same `$id` without clashing.
    validate = new Ajv2020({ allErrors: true, strict: false, validateFormats: false }).compile(root);
  } catch (error) {
    throw new Error(`inputSchema is not a valid JSON Schema 2020-12: ${(error as Error).message}`);
  }
  const raw: RawInputSchema = {
    schema: schema as McpInputJsonSchema,
    required: required ?? [],
    violations: (args) => (validate(args) ? [] : violationsOf(validate.errors ?? [])),
  };
  compiled.set(schema, raw);
  return raw;
}

/**
 * Every `$ref` / `$dynamicRef` that does not start with `#` (a pointer or an anchor in this
 * document), with where it sits. `$id`-relative references are refused too: they name another document.
 */
function externalReferences(node: unknown, at: string): string[] {
  if (typeof node !== 'object' || node === null) return [];
  if (Array.isArray(node)) return node.flatMap((item, index) => externalReferences(item, `${at}/${index}`));
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) => {
    const here = `${at}/${key}`;
    if ((key === '$ref' || key === '$dynamicRef') && typeof value === 'string' && !value.startsWith('#')) {
      return [`${key} "${value}" at ${here}`];
    }
    // `const`, `enum`, `default` and `examples` hold data, not schemas: a "$ref" key there is a value.
    if (key === 'const' || key === 'enum' || key === 'default' || key === 'examples') return [];
    return externalReferences(value, here);
  });
}

/**
 * The validator's errors as field violations: the field is the argument's dotted path, as DTO
 * violations name it (`address.city`, `lines[0].amount`); a missing or unknown property is named
 * itself. The alternatives of a failed `anyOf`/`oneOf` are said in one violation (each one alone
 * is not required), and the `if` that chose a failed `then`/`else` adds nothing to that branch's own errors.
 */
function violationsOf(errors: ErrorObject[]): FieldViolation[] {
  const alternatives = errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf');
  const branchOf = (error: ErrorObject) => alternatives.find((group) => error.schemaPath.startsWith(`${group.schemaPath}/`));
  const violations: FieldViolation[] = [];
  for (const error of errors) {
    if (error.keyword === 'if' || branchOf(error)) continue;
    if (alternatives.includes(error)) {
      violations.push(
        alternativesViolation(
          error,
          errors.filter((e) => branchOf(e) === error),
        ),
      );
      continue;
    }
    violations.push(violationOf(error));
  }
  const seen = new Set<string>();
  return violations.filter(({ field, message }) => !seen.has(`${field}\n${message}`) && !!seen.add(`${field}\n${message}`));
}

function violationOf(error: ErrorObject): FieldViolation {
  const at = fieldOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
    case 'dependentRequired': {
      const field = join(at, String(params.missingProperty));
      return { field, message: `\`${field}\` is missing` };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const field = join(at, String(params.additionalProperty ?? params.unevaluatedProperty));
      return { field, message: `\`${field}\` is not an accepted argument; remove it` };
    }
    case 'enum':
      return { field: at, message: `${subject(at)} must be one of ${(params.allowedValues as unknown[]).map(show).join(', ')}` };
    case 'const':
      return { field: at, message: `${subject(at)} must be ${show(params.allowedValue)}` };
    default:
      return { field: at, message: `${subject(at)} ${error.message ?? `fails \`${error.keyword}\``}` };
  }
}

/** A failed `anyOf`/`oneOf`: what each alternative lacked, so the caller can pick one. */
function alternativesViolation(group: ErrorObject, inside: ErrorObject[]): FieldViolation {
  const at = fieldOf(group.instancePath);
  const byBranch = new Map<string, string[]>();
  for (const error of inside) {
    const branch = error.schemaPath.slice(group.schemaPath.length + 1).split('/')[0];
    const { message } = violationOf(error);
    byBranch.set(branch, [...(byBranch.get(branch) ?? []), message]);
  }
  const options = [...byBranch.values()].map((messages) => `(${messages.join(' and ')})`);
  if (!options.length) {
    // A `oneOf` whose value matches several alternatives: no branch failed.
    return { field: at, message: `${subject(at)} must match exactly one of the alternatives its schema offers, and matches more than one` };
  }
  const rule = group.keyword === 'oneOf' ? 'exactly one' : 'at least one';
  return { field: at, message: `${subject(at)} must match ${rule} of the alternatives its schema offers: ${options.join(' or ')}` };
}

/** A JSON pointer (`/lines/0/amount`) as the dotted path DTO violations use (`lines[0].amount`). */
function fieldOf(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : join(path, segment)), '');
}

function join(parent: string, property: string): string {
  return parent ? `${parent}.${property}` : property;
}

function subject(field: string): string {
  return field ? `\`${field}\`` : 'the arguments';
}

function show(value: unknown): string {
  return JSON.stringify(value);
}
