import { createRequire } from 'node:module';

interface TypeMetadata {
  typeFunction?: () => unknown;
}
type PropertyMetadata = { target: Function; propertyName: string };
type ByTarget<T> = Map<Function, Map<string, T>>;
interface TransformerMetadataStorage {
  findTypeMetadata(target: Function, propertyName: string): TypeMetadata | undefined;
  addTypeMetadata(metadata: PropertyMetadata): void;
  addTransformMetadata(metadata: PropertyMetadata): void;
  addExposeMetadata(metadata: PropertyMetadata): void;
  addExcludeMetadata(metadata: PropertyMetadata): void;
  _typeMetadatas: ByTarget<PropertyMetadata>;
  _transformMetadatas: ByTarget<PropertyMetadata[]>;
  _exposeMetadatas: ByTarget<PropertyMetadata>;
  _excludeMetadatas: ByTarget<PropertyMetadata>;
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

/** Classes `@Type(() => X)` may name that are values, not nested DTOs (`@Type(() => Number)`). */
const VALUE_TYPES: unknown[] = [String, Number, Boolean, Date, Object, Array, BigInt, Symbol, Map, Set, Buffer, Function];

/**
 * The properties of `dto` (its own and inherited) whose `@Type(() => X)` names a class, i.e. a
 * nested DTO class-transformer will instantiate, with that class.
 */
export function nestedTypeProperties(dto: Function): Map<string, Function> {
  const found = new Map<string, Function>();
  for (const target of lineage(dto)) {
    for (const property of transformerStorage._typeMetadatas.get(target)?.keys() ?? []) {
      if (found.has(property)) continue;
      const type = declaredNestedType(dto, property);
      if (typeof type === 'function' && !VALUE_TYPES.includes(type)) found.set(property, type);
    }
  }
  return found;
}

/**
 * Gives `to` the class-transformer decorators (`@Type`, `@Transform`, `@Expose`, `@Exclude`) that
 * `from` and its ancestors declare on `properties`, so `plainToInstance(to, …)` converts them as
 * `plainToInstance(from, …)` would.
 */
export function copyTransformerMetadata(from: Function, to: Function, properties: readonly string[]): void {
  const s = transformerStorage;
  const single: Array<[ByTarget<PropertyMetadata>, (m: PropertyMetadata) => void]> = [
    [s._typeMetadatas, (m) => s.addTypeMetadata(m)],
    [s._exposeMetadatas, (m) => s.addExposeMetadata(m)],
    [s._excludeMetadatas, (m) => s.addExcludeMetadata(m)],
  ];
  // Nearest class last, so its declaration wins, as class-transformer's own lookup would have it.
  for (const target of lineage(from).reverse()) {
    for (const property of properties) {
      for (const [map, add] of single) {
        const metadata = map.get(target)?.get(property);
        if (metadata) add({ ...metadata, target: to });
      }
      for (const metadata of s._transformMetadatas.get(target)?.get(property) ?? []) {
        s.addTransformMetadata({ ...metadata, target: to });
      }
    }
  }
}

function lineage(type: Function): Function[] {
  const chain: Function[] = [];
  for (let current = type; current && current !== Function.prototype && current !== Object; current = Object.getPrototypeOf(current)) {
    chain.push(current);
  }
  return chain;
}
