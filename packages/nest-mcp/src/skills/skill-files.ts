import { extname } from 'node:path';

/** The media type of a directory resource (the skills extension's directory listing). */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** Media types by extension, for the files a skill usually carries; anything else is served as bytes. */
const MIME_TYPES: Readonly<Record<string, string>> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.xml': 'application/xml',
  '.py': 'text/x-python',
  '.sh': 'text/x-shellscript',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.sql': 'application/sql',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
};

const TEXT_TYPES = new Set(['application/json', 'application/yaml', 'application/xml', 'application/sql', 'image/svg+xml']);

export function mimeTypeOf(fileName: string): string {
  return MIME_TYPES[extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

/** Whether a file is read back as `text` (UTF-8) rather than a base64 `blob`. */
export function isTextual(mimeType: string, bytes: Uint8Array): boolean {
  if (!mimeType.startsWith('text/') && !TEXT_TYPES.has(mimeType)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
