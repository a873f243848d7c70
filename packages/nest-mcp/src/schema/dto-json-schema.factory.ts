import type { Type } from '@nestjs/common';
import { getMetadataStorage, ValidationTypes } from 'class-validator';

type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];
import { declaredNestedType } from './class-transformer-types.js';
import { CONSTRAINT_KEYWORDS, STRING_ONLY_KEYWORDS } from './constraint-keywords.js';
import type { JsonSchema } from './json-schema.types.js';
import { swaggerPropertyNames, swaggerPropertyOf, swaggerSchema, type SwaggerProperty } from './swagger-property.schema.js';

export interface DtoSchemaOptions {
  /**
   * `input`: exactly the properties the validator accepts, and `additionalProperties: false`
   * when it refuses others (`closed`). `output`: also properties documented only with
   * `@ApiProperty()`, since response DTOs seldom carry validators.
   */
  mode: 'input' | 'output';
  closed?: boolean;
}

/**
 * Builds the JSON Schema (2020-12) of a class-validator DTO: the same metadata that validates a
 * call describes it, so the schema a client sees cannot drift from the checks the server runs.
 * Called once per DTO at bootstrap.
 */
export function dtoToJsonSchema(dto: Type<unknown>, options: DtoSchemaOptions, stack: Type<unknown>[] = []): JsonSchema {
  if (stack.includes(dto)) {
    throw new Error(`DTO ${[...stack, dto].map((t) => t.name).join(' -> ')} is recursive; MCP schemas must be finite`);
  }
  const storage = getMetadataStorage();
  const byProperty = storage.groupByPropertyName(storage.getTargetValidationMetadatas(dto, '', true, false));
  if (options.mode === 'input') assertValidatable(dto, Object.keys(byProperty));
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [property, metadatas] of Object.entries(byProperty)) {
    properties[property] = propertySchema(dto, property, metadatas, options, [...stack, dto]);
    if (!metadatas.some(isOptionalMarker)) required.push(property);
  }
  if (options.mode === 'output') {
    for (const property of swaggerPropertyNames(dto)) {
      if (properties[property]) continue;
      const meta = swaggerPropertyOf(dto, property) ?? {};
      const designType = Reflect.getMetadata('design:type', dto.prototype, property);
      const schema = swaggerSchema(meta, designType, (nested) => dtoToJsonSchema(nested, options, [...stack, dto]));
      properties[property] = applySwagger(schema, meta);
      if (meta.required !== false) required.push(property);
    }
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    ...(options.mode === 'input' && options.closed ? { additionalProperties: false } : {}),
  };
}

/**
 * An input DTO the validator cannot check would refuse every call ("an unknown value was passed
 * to the validate function") or silently drop a documented property: say so at boot instead.
 */
function assertValidatable(dto: Type<unknown>, validated: string[]): void {
  if (!validated.length) {
    throw new Error(
      `${dto.name} has no class-validator decorators, so every call would be refused. Give each property its ` +
        'validators (@IsString(), @IsInt(), @ValidateNested() with @Type(() => Nested), @IsOptional() for optional ones); ' +
        '@ApiProperty() documents a property but does not validate it',
    );
  }
  const unvalidated = swaggerPropertyNames(dto).filter((property) => !validated.includes(property));
  if (unvalidated.length) {
    throw new Error(
      `${unvalidated.map((property) => `${dto.name}.${property}`).join(', ')}: documented with @ApiProperty() but without a ` +
        'class-validator decorator, so calls that pass it would be refused. Add its validators (with @IsOptional() if it may be omitted), or remove it',
    );
  }
}

function isOptionalMarker(metadata: ValidationMetadata): boolean {
  return metadata.type === ValidationTypes.CONDITIONAL_VALIDATION;
}

function propertySchema(
  dto: Type<unknown>,
  property: string,
  metadatas: ValidationMetadata[],
  options: DtoSchemaOptions,
  stack: Type<unknown>[],
): JsonSchema {
  const designType: unknown = Reflect.getMetadata('design:type', dto.prototype, property);
  let schema: JsonSchema = designTypeSchema(designType);
  let items: JsonSchema | undefined;
  let nested: Type<unknown> | undefined;

  for (const metadata of metadatas) {
    if (metadata.type === ValidationTypes.NESTED_VALIDATION) {
      nested = nestedType(dto, property, designType);
      if (metadata.each) schema = { ...schema, type: 'array' };
      continue;
    }
    const keywords = metadata.name ? CONSTRAINT_KEYWORDS[metadata.name] : undefined;
    if (!keywords) continue;
    const produced = stripUndefined(keywords(metadata.constraints ?? []));
    if (metadata.each) {
      items = { ...items, ...produced };
      schema = { ...schema, type: 'array' };
    } else {
      schema = { ...schema, ...produced, type: produced.type === undefined ? schema.type : mergeType(schema.type, produced.type) };
    }
  }

  if (nested) {
    const nestedSchema = dtoToJsonSchema(nested, options, stack);
    if (schema.type === 'array') items = { ...nestedSchema, ...items, type: 'object' };
    else schema = { ...nestedSchema, ...schema, type: 'object', properties: nestedSchema.properties };
  }
  if (schema.type === 'array') schema.items = finishScalar(items ?? {});

  return applySwagger(finishScalar(schema), swaggerPropertyOf(dto, property));
}

/** `@IsInt()` on a `number` property says integer, not number; otherwise the constraint wins. */
function mergeType(current: JsonSchema['type'], produced: JsonSchema['type']): JsonSchema['type'] {
  if (current === 'integer' && produced === 'number') return 'integer';
  if (current === 'array' && produced !== 'array') return 'array';
  return produced;
}

function designTypeSchema(designType: unknown): JsonSchema {
  switch (designType) {
    case String:
      return { type: 'string' };
    case Number:
      return { type: 'number' };
    case Boolean:
      return { type: 'boolean' };
    case Array:
      return { type: 'array' };
    case Date:
      return { type: 'string', format: 'date-time' };
    default:
      return {};
  }
}

function nestedType(dto: Type<unknown>, property: string, designType: unknown): Type<unknown> | undefined {
  const resolved = declaredNestedType(dto, property) ?? designType;
  if (typeof resolved !== 'function' || [Array, Object, String, Number, Boolean, Date].includes(resolved as never)) {
    throw new Error(`${dto.name}.${property}: @ValidateNested() needs @Type(() => NestedDto) to describe the nested object`);
  }
  return resolved as Type<unknown>;
}

/** Drops keywords that do not apply to the final type (e.g. `minLength` from `@IsNotEmpty()` on a number). */
function finishScalar(schema: JsonSchema): JsonSchema {
  if (schema.type && schema.type !== 'string') {
    for (const keyword of STRING_ONLY_KEYWORDS) delete schema[keyword];
  }
  return schema;
}

function applySwagger(schema: JsonSchema, swagger: SwaggerProperty | undefined): JsonSchema {
  if (!swagger) return schema;
  const result: JsonSchema = { ...schema };
  if (swagger.title) result.title = swagger.title;
  if (swagger.description) result.description = swagger.description;
  if (swagger.format && result.type === 'string') result.format = swagger.format;
  if (swagger.example !== undefined) result.examples = [swagger.example];
  if (swagger.default !== undefined) result.default = swagger.default;
  if (swagger.deprecated) result.deprecated = true;
  return result;
}

function stripUndefined(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([, v]) => v !== undefined));
}
