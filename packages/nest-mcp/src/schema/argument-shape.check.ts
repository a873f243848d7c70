import type { JsonSchema } from './json-schema.types.js';

export interface ShapeViolation {
  field: string;
  message: string;
}

/**
 * What the schema promises and class-validator alone does not hold: a property listed in
 * `required` must be present (`@ValidateNested()` and `@Allow()` let `undefined` through), and a
 * nested DTO must receive an object (an array of them, an array). Reported first and in the
 * schema's words, so a missing field says "missing" rather than the first constraint it fails.
 */
export function argumentShapeViolations(schema: JsonSchema, value: Record<string, unknown>, parent = ''): ShapeViolation[] {
  const violations: ShapeViolation[] = [];
  const required = new Set(schema.required ?? []);
  for (const [property, propertySchema] of Object.entries(schema.properties ?? {})) {
    const field = parent ? `${parent}.${property}` : property;
    const propertyValue = value[property];
    if (propertyValue === undefined) {
      if (required.has(property)) violations.push({ field, message: `\`${field}\` is missing` });
      continue;
    }
    violations.push(...nestedViolations(propertySchema, propertyValue, field));
  }
  return violations;
}

function nestedViolations(schema: JsonSchema, value: unknown, field: string): ShapeViolation[] {
  if (isNestedObject(schema)) {
    if (!isPlainObject(value)) return [{ field, message: `\`${field}\` must be an object` }];
    return argumentShapeViolations(schema, value, field);
  }
  if (schema.type === 'array' && schema.items && isNestedObject(schema.items)) {
    if (!Array.isArray(value)) return [{ field, message: `\`${field}\` must be an array` }];
    return value.flatMap((item, index) => nestedViolations(schema.items!, item, `${field}[${index}]`));
  }
  return [];
}

/** A nested DTO's schema (from `@ValidateNested()`), as opposed to a free-form `@IsObject()`. */
function isNestedObject(schema: JsonSchema): boolean {
  return schema.type === 'object' && schema.properties !== undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
