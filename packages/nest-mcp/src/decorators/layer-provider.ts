import type { ModuleRef } from '@nestjs/core';

/**
 * A provider of the layer that an interceptor a decorator adds needs (the decorators cannot import
 * the layers above them, so they find it in the application by `token`); `missing` is the error
 * when the application has no `McpModule`.
 */
export function layerProvider<T>(moduleRef: ModuleRef, token: symbol, missing: string): T {
  try {
    return moduleRef.get<T>(token, { strict: false });
  } catch {
    throw new Error(missing);
  }
}
