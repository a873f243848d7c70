import { createRequire } from 'node:module';

interface TypeMetadata {
  typeFunction?: () => unknown;
}
interface TransformerMetadataStorage {
  findTypeMetadata(target: Function, propertyName: string): TypeMetadata | undefined;
}

/**
 * class-transformer keeps `@Type(() => X)` in a storage it does not export from its entry point.
 * Its package has no `exports` map, so ESM and CJS importers share this CommonJS instance.
 */
const transformerStorage: TransformerMetadataStorage = createRequire(import.meta.url)(
  'class-transformer/cjs/storage.js',
).defaultMetadataStorage;

/** The class named by `@Type(() => X)` on a property, if any. */
export function declaredNestedType(target: Function, property: string): unknown {
  return transformerStorage.findTypeMetadata(target, property)?.typeFunction?.();
}
