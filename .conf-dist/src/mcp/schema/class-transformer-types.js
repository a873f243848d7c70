import { createRequire } from 'node:module';
/**
 * class-transformer keeps `@Type(() => X)` in a storage it does not export from its entry point.
 * Its package has no `exports` map, so ESM and CJS importers share this CommonJS instance.
 */
const transformerStorage = createRequire(import.meta.url)('class-transformer/cjs/storage.js').defaultMetadataStorage;
/** The class named by `@Type(() => X)` on a property, if any. */
export function declaredNestedType(target, property) {
    return transformerStorage.findTypeMetadata(target, property)?.typeFunction?.();
}
//# sourceMappingURL=class-transformer-types.js.map