/** A Redis URL without its password, for log lines; `fallback` when the text is no URL (it is then not echoed: it may hold a secret). */
export function redactUrl(url: string, fallback = '<invalid URL>'): string {
  const parsed = URL.parse(url);
  if (parsed?.password) parsed.password = '***';
  return parsed?.href ?? fallback;
}
