import type { ReadResourceResult } from '@modelcontextprotocol/server';
import type { McpResourceLink } from '@nest-mcp/core';
import { attachmentPartUri, attachmentUri } from './attachment-files.js';

/**
 * How a stored file reaches an MCP client, which may hold no REST token (an agent's token is for
 * the MCP endpoint only): as resources, one read per stored part, so no read is larger than a part
 * (about 1 MiB for an export, at most the 10 MiB upload cap) and none loads the whole file.
 * `billing://attachments/{id}` is a file of one part; `billing://attachments/{id}/parts/{n}` is
 * part n (from 1) of any file. A tool that stored a file links to what to read (`resource_link`).
 */

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * One read's contents: text for a `text/*` file whose bytes are UTF-8 (a CSV export always is, and
 * each of its parts is whole lines), else the bytes as a base64 blob (a PDF, an image, a text file
 * in another encoding: never a lossy decode).
 */
export function resourceContents(uri: string, contentType: string, bytes: Buffer): ReadResourceResult {
  if (contentType.startsWith('text/')) {
    const text = utf8(bytes);
    if (text !== undefined) return { contents: [{ uri, mimeType: contentType, text }] };
  }
  return { contents: [{ uri, mimeType: contentType, blob: bytes.toString('base64') }] };
}

/** What to read for a stored file: the file itself when it is one part, else each part in order. */
export function attachmentLinks(file: { id: string; filename: string; contentType: string; partSizes: number[] }): McpResourceLink[] {
  const { id, filename, contentType, partSizes } = file;
  if (partSizes.length <= 1) {
    return [{ uri: attachmentUri(id), name: filename, mimeType: contentType, size: partSizes[0] ?? 0 }];
  }
  const count = partSizes.length;
  return partSizes.map((size, index) => ({
    uri: attachmentPartUri(id, index + 1),
    name: `${filename} part ${index + 1}/${count}`,
    title: `${filename}, part ${index + 1} of ${count}`,
    description: `Part ${index + 1} of ${count} of ${filename}: the file is its ${count} parts joined in order.`,
    mimeType: contentType,
    size,
  }));
}

/** A part number as the template gives it: a positive integer written plainly ("1", never "01" or "1.0"), else undefined. */
export function partNumber(value: string): number | undefined {
  return /^[1-9]\d{0,8}$/.test(value) ? Number(value) : undefined;
}

function utf8(bytes: Buffer): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
