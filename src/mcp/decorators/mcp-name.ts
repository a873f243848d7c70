const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Resolves the public name of a decorated method: the explicit one, or the method name.
 * Checked when the decorator is applied so a bad name fails at import, not at first call.
 */
export function resolveMcpName(kind: string, explicit: string | undefined, propertyKey: string | symbol): string {
  const name = explicit ?? String(propertyKey);
  if (!NAME_PATTERN.test(name)) {
    throw new Error(`@${kind}: "${name}" is not a valid name (1–128 characters of A-Z a-z 0-9 _ - .)`);
  }
  return name;
}
