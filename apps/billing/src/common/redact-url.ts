/**
 * A connection URL without its password, for log lines and error messages; `fallback` when the
 * text is not a URL (it may then hold a secret in any shape: it is not echoed).
 */
export function redactUrl(url: string, fallback = '<invalid URL>'): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return fallback;
  }
}
