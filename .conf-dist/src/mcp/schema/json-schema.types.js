export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
//# sourceMappingURL=json-schema.types.js.map