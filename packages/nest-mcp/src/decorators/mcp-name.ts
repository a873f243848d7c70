/** SEP-986 (2025-11-25 `Tool` names): 1–128 characters of A-Z a-z 0-9 _ - . (case-sensitive). */
const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
const MAX_NAME_LENGTH = 128;

/**
 * Resolves the public name of a decorated method: the explicit one, or the method name.
 * Checked when the decorator is applied so a bad name fails while the application boots (its
 * modules are imported), not at first call; the error names the method and suggests a name.
 */
export function resolveMcpName(kind: string, explicit: string | undefined, propertyKey: string | symbol, target?: object): string {
  const name = explicit ?? String(propertyKey);
  if (!NAME_PATTERN.test(name)) {
    const owner = target
      ? `${(target as { constructor?: { name?: string } }).constructor?.name ?? 'anonymous'}.${String(propertyKey)}: `
      : '';
    throw new Error(
      `@${kind}: ${owner}"${name}" is not a valid name: use 1–${MAX_NAME_LENGTH} characters of A-Z a-z 0-9 _ - . ` +
        `(no spaces, slashes or other characters), e.g. name: ${JSON.stringify(suggestName(name))}`,
    );
  }
  return name;
}

/** A valid name close to a refused one: other characters become `_`, then cut to the limit. */
export function suggestName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, MAX_NAME_LENGTH);
  return cleaned.replace(/^_+|_+$/g, '') || 'tool';
}
