/** Largest file an upload may hold, decoded: 10 MiB. Its base64 fits the 14 MiB request body limit. (Exports have their own limit.) */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** "10 MiB (10485760 bytes)": how the cap is said in messages. */
export const MAX_ATTACHMENT_LABEL = sizeLabel(MAX_ATTACHMENT_BYTES);

/**
 * Bytes per stored part (`attachment_parts`): a file is written and read a part at a time, so no
 * step holds a large file in memory, and a part is one MCP resource read. An export's parts end
 * at line ends (a part is whole CSV lines), so they may be a little shorter.
 */
export const PART_BYTES = 1024 * 1024;

/** The MCP resource of a whole file (of one part: an upload, a small export). */
export const ATTACHMENT_URI_TEMPLATE = 'billing://attachments/{attachment_id}';
/** The MCP resource of one part of a file, `part` from 1: how a client reads a file of several parts. */
export const ATTACHMENT_PART_URI_TEMPLATE = 'billing://attachments/{attachment_id}/parts/{part}';

export function attachmentUri(id: string): string {
  return `billing://attachments/${id}`;
}

export function attachmentPartUri(id: string, part: number): string {
  return `${attachmentUri(id)}/parts/${part}`;
}

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

/** "1 GiB (1073741824 bytes)", "10 MiB (10485760 bytes)": a limit as messages state it. */
export function sizeLabel(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit} (${bytes} bytes)`;
  }
  return bytes < 1024 ? `${bytes} bytes` : `${formatBytes(bytes)} (${bytes} bytes)`;
}

/** "1.50 MiB": sizes in messages. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(2)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}
