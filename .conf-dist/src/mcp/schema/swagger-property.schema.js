/** Metadata keys @nestjs/swagger writes for `@ApiProperty()`; read, never written, here. */
export const SWAGGER_PROPERTY_METADATA = 'swagger/apiModelProperties';
export const SWAGGER_PROPERTY_LIST_METADATA = 'swagger/apiModelPropertiesArray';
export function swaggerPropertyOf(dto, property) {
    return Reflect.getMetadata(SWAGGER_PROPERTY_METADATA, dto.prototype, property);
}
/** Properties declared with `@ApiProperty()` only (response DTOs rarely carry validators). */
export function swaggerPropertyNames(dto) {
    const names = Reflect.getMetadata(SWAGGER_PROPERTY_LIST_METADATA, dto.prototype) ?? [];
    return names.map((name) => name.replace(/^:/, ''));
}
/** `type: () => Dto` (lazy) or `type: Dto`; arrow functions have no prototype, classes do. */
function resolveType(type) {
    return typeof type === 'function' && !type.prototype ? type() : type;
}
/**
 * The schema of a property described only by `@ApiProperty()`. `nested` turns a DTO class into
 * its schema (the caller's converter, so nested DTOs follow the same rules).
 */
export function swaggerSchema(meta, designType, nested) {
    const declared = resolveType(meta.type) ?? designType;
    const isArray = meta.isArray || Array.isArray(declared) || declared === Array;
    const itemType = Array.isArray(declared) ? resolveType(declared[0]) : declared === Array ? undefined : declared;
    const scalar = scalarSchema(itemType, meta, nested);
    const schema = isArray ? { type: 'array', items: scalar } : scalar;
    if (meta.nullable && typeof schema.type === 'string')
        schema.type = [schema.type, 'null'];
    return schema;
}
function scalarSchema(type, meta, nested) {
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
            return typeof type === 'function' ? nested(type) : {};
    }
}
//# sourceMappingURL=swagger-property.schema.js.map