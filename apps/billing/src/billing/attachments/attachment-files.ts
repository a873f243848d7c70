/** Largest file an attachment may hold, decoded: 10 MiB. Its base64 fits the 14 MiB request body limit. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** "10 MiB (10485760 bytes)": how the cap is said in messages. */
export const MAX_ATTACHMENT_LABEL = `${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB (${MAX_ATTACHMENT_BYTES} bytes)`;

/** A bare file name: no path separators, no control characters, not "." or "..". */
export const FILENAME_PATTERN = /^(?!\.{1,2}$)[^/\\\x00-\x1f\x7f]+$/;

/** Where the bytes of an attachment are fetched over REST. */
export function downloadPath(id: string): string {
  return `/v1/attachments/${id}/content`;
}

/**
 * `Content-Disposition` for a stored file name: `attachment` (never rendered inline), an ASCII
 * fallback without quotes or separators, and the exact name percent-encoded (RFC 6266 / 5987).
 */
export function contentDisposition(filename: string): string {
  const ascii =
    filename
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9._() -]/g, '_')
      .replace(/^[.\s]+/, '')
      .slice(0, 150) || 'attachment';
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** "1.50 MiB": sizes in messages. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(2)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}
