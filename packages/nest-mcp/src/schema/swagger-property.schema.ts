import type { Type } from '@nestjs/common';
import type { JsonSchema } from './json-schema.types.js';

/** Metadata keys @nestjs/swagger writes for `@ApiProperty()`; read, never written, here. */
export const SWAGGER_PROPERTY_METADATA = 'swagger/apiModelProperties';
export const SWAGGER_PROPERTY_LIST_METADATA = 'swagger/apiModelPropertiesArray';

export interface SwaggerProperty {
  type?: unknown;
  isArray?: boolean;
  required?: boolean;
  description?: string;
  title?: string;
  format?: string;
  example?: unknown;
  default?: unknown;
  deprecated?: boolean;
  enum?: unknown[] | Record<string, unknown>;
  nullable?: boolean;
}

export function swaggerPropertyOf(dto: Type<unknown>, property: string): SwaggerProperty | undefined {
  return Reflect.getMetadata(SWAGGER_PROPERTY_METADATA, dto.prototype, property);
}

/** Properties declared with `@ApiProperty()` only (response DTOs rarely carry validators). */
export function swaggerPropertyNames(dto: Type<unknown>): string[] {
  const names: string[] = Reflect.getMetadata(SWAGGER_PROPERTY_LIST_METADATA, dto.prototype) ?? [];
  return names.map((name) => name.replace(/^:/, ''));
}

/** `type: () => Dto` (lazy) or `type: Dto`; arrow functions have no prototype, classes do. */
function resolveType(type: unknown): unknown {
  return typeof type === 'function' && !type.prototype ? (type as () => unknown)() : type;
}

/**
 * The schema of a property described only by `@ApiProperty()`. `nested` turns a DTO class into
 * its schema (the caller's converter, so nested DTOs follow the same rules).
 */
export function swaggerSchema(meta: SwaggerProperty, designType: unknown, nested: (dto: Type<unknown>) => JsonSchema): JsonSchema {
  const declared = resolveType(meta.type) ?? designType;
  const isArray = meta.isArray || Array.isArray(declared) || declared === Array;
  const itemType = Array.isArray(declared) ? resolveType(declared[0]) : declared === Array ? undefined : declared;
  const scalar = scalarSchema(itemType, meta, nested);
  const schema: JsonSchema = isArray ? { type: 'array', items: scalar } : scalar;
  if (meta.nullable && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  return schema;
}

function scalarSchema(type: unknown, meta: SwaggerProperty, nested: (dto: Type<unknown>) => JsonSchema): JsonSchema {
  if (meta.enum) {
    const values = Array.isArray(meta.enum) ? meta.enum : Object.values(meta.enum);
    return { ...(values.every((v) => typeof v === 'string') ? { type: 'string' } : {}), enum: values };
  }
  switch (type) {
    case String:
    case 'string':
      return { type: 'string' };
    case Number:
    case 'number':
      return { type: 'number' };
    case 'integer':
      return { type: 'integer' };
    case Boolean:
    case 'boolean':
      return { type: 'boolean' };
    case Date:
      return { type: 'string', format: 'date-time' };
    case 'object':
      return { type: 'object' };
    case Object:
      // What TypeScript emits for unions (`string | null`) and interfaces: unknown, so no type
      // is claimed rather than a wrong one.
      return {};
    default:
      return typeof type === 'function' ? nested(type as Type<unknown>) : {};
  }
}
