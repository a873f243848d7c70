import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { declaredNestedType } from './class-transformer-types.js';
import { CONSTRAINT_KEYWORDS, STRING_ONLY_KEYWORDS } from './constraint-keywords.js';
import { swaggerPropertyNames, swaggerPropertyOf, swaggerSchema } from './swagger-property.schema.js';
/**
 * Builds the JSON Schema (2020-12) of a class-validator DTO: the same metadata that validates a
 * call describes it, so the schema a client sees cannot drift from the checks the server runs.
 * Called once per DTO at bootstrap.
 */
export function dtoToJsonSchema(dto, options, stack = []) {
    if (stack.includes(dto)) {
        throw new Error(`DTO ${[...stack, dto].map((t) => t.name).join(' -> ')} is recursive; MCP schemas must be finite`);
    }
    const storage = getMetadataStorage();
    const byProperty = storage.groupByPropertyName(storage.getTargetValidationMetadatas(dto, '', true, false));
    const properties = {};
    const required = [];
    for (const [property, metadatas] of Object.entries(byProperty)) {
        properties[property] = propertySchema(dto, property, metadatas, options, [...stack, dto]);
        if (!metadatas.some(isOptionalMarker))
            required.push(property);
    }
    if (options.mode === 'output') {
        for (const property of swaggerPropertyNames(dto)) {
            if (properties[property])
                continue;
            const meta = swaggerPropertyOf(dto, property) ?? {};
            const designType = Reflect.getMetadata('design:type', dto.prototype, property);
            const schema = swaggerSchema(meta, designType, (nested) => dtoToJsonSchema(nested, options, [...stack, dto]));
            properties[property] = applySwagger(schema, meta);
            if (meta.required !== false)
                required.push(property);
        }
    }
    return {
        type: 'object',
        properties,
        ...(required.length ? { required } : {}),
        ...(options.mode === 'input' && options.closed ? { additionalProperties: false } : {}),
    };
}
function isOptionalMarker(metadata) {
    return metadata.type === ValidationTypes.CONDITIONAL_VALIDATION;
}
function propertySchema(dto, property, metadatas, options, stack) {
    const designType = Reflect.getMetadata('design:type', dto.prototype, property);
    let schema = designTypeSchema(designType);
    let items;
    let nested;
    for (const metadata of metadatas) {
        if (metadata.type === ValidationTypes.NESTED_VALIDATION) {
            nested = nestedType(dto, property, designType);
            if (metadata.each)
                schema = { ...schema, type: 'array' };
            continue;
        }
        const keywords = metadata.name ? CONSTRAINT_KEYWORDS[metadata.name] : undefined;
        if (!keywords)
            continue;
        const produced = stripUndefined(keywords(metadata.constraints ?? []));
        if (metadata.each) {
            items = { ...items, ...produced };
            schema = { ...schema, type: 'array' };
        }
        else {
            schema = { ...schema, ...produced, type: produced.type === undefined ? schema.type : mergeType(schema.type, produced.type) };
        }
    }
    if (nested) {
        const nestedSchema = dtoToJsonSchema(nested, options, stack);
        if (schema.type === 'array')
            items = { ...nestedSchema, ...items, type: 'object' };
        else
            schema = { ...nestedSchema, ...schema, type: 'object', properties: nestedSchema.properties };
    }
    if (schema.type === 'array')
        schema.items = finishScalar(items ?? {});
    return applySwagger(finishScalar(schema), swaggerPropertyOf(dto, property));
}
/** `@IsInt()` on a `number` property says integer, not number; otherwise the constraint wins. */
function mergeType(current, produced) {
    if (current === 'integer' && produced === 'number')
        return 'integer';
    if (current === 'array' && produced !== 'array')
        return 'array';
    return produced;
}
function designTypeSchema(designType) {
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
function nestedType(dto, property, designType) {
    const resolved = declaredNestedType(dto, property) ?? designType;
    if (typeof resolved !== 'function' || [Array, Object, String, Number, Boolean, Date].includes(resolved)) {
        throw new Error(`${dto.name}.${property}: @ValidateNested() needs @Type(() => NestedDto) to describe the nested object`);
    }
    return resolved;
}
/** Drops keywords that do not apply to the final type (e.g. `minLength` from `@IsNotEmpty()` on a number). */
function finishScalar(schema) {
    if (schema.type && schema.type !== 'string') {
        for (const keyword of STRING_ONLY_KEYWORDS)
            delete schema[keyword];
    }
    return schema;
}
function applySwagger(schema, swagger) {
    if (!swagger)
        return schema;
    const result = { ...schema };
    if (swagger.title)
        result.title = swagger.title;
    if (swagger.description)
        result.description = swagger.description;
    if (swagger.format && result.type === 'string')
        result.format = swagger.format;
    if (swagger.example !== undefined)
        result.examples = [swagger.example];
    if (swagger.default !== undefined)
        result.default = swagger.default;
    if (swagger.deprecated)
        result.deprecated = true;
    return result;
}
function stripUndefined(schema) {
    return Object.fromEntries(Object.entries(schema).filter(([, v]) => v !== undefined));
}
//# sourceMappingURL=dto-json-schema.factory.js.map