/**
 * Arguments the layer has validated against their DTO (`validateArguments`), and the slices of them
 * handed to a route handler's `@Body()`/`@Query()`/`@Param()`. A `ValidationPipe` of the host
 * application has nothing left to check on these: the handler factory skips it for them, so a
 * call is validated once, with the messages the layer words for the model.
 */
const validated = new WeakSet<object>();

export function markValidated<T extends object>(value: T): T {
  validated.add(value);
  return value;
}

/** True for a value the layer validated as an instance of `type` (or of a subclass). */
export function isValidatedAs(value: unknown, type: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof type === 'function' && value instanceof type && validated.has(value);
}
