import type { Icon } from '@modelcontextprotocol/server';

/**
 * 2025-11-25 `icons` (tools, resources, prompts). Clients render `src` and are told to load only
 * `https:` and `data:` URIs (spec, "Icons" security considerations), so anything else would never
 * be shown: refused when the decorator is applied, with what to change.
 */
const SIZE_PATTERN = /^(?:[1-9][0-9]{0,4}x[1-9][0-9]{0,4}|any)$/;
const IMAGE_MIME_PATTERN = /^image\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;
const DATA_URI_PATTERN = /^data:(image\/[A-Za-z0-9!#$&^_.+-]+)(?:;[A-Za-z0-9=._-]+)*;base64,[A-Za-z0-9+/]+={0,2}$/;

export function checkIcons(where: string, icons: unknown): Icon[] | undefined {
  if (icons === undefined) return undefined;
  if (!Array.isArray(icons)) throw new Error(`${where}: icons must be an array of { src, mimeType?, sizes?, theme? }`);
  return icons.map((icon, index) => checkIcon(`${where}: icons[${index}]`, icon));
}

function checkIcon(where: string, icon: unknown): Icon {
  if (!icon || typeof icon !== 'object' || Array.isArray(icon))
    throw new Error(`${where} must be an object { src, mimeType?, sizes?, theme? }`);
  const { src, mimeType, sizes, theme, ...rest } = icon as Record<string, unknown>;
  const unknownKeys = Object.keys(rest);
  if (unknownKeys.length) throw new Error(`${where} has unknown field(s) ${unknownKeys.join(', ')}: only src, mimeType, sizes, theme`);
  if (typeof src !== 'string' || !isRenderableSource(src)) {
    throw new Error(
      `${where}.src must be an https: URL or a data:image/…;base64,… URI (clients load nothing else), got ${JSON.stringify(src)}`,
    );
  }
  if (mimeType !== undefined && (typeof mimeType !== 'string' || !IMAGE_MIME_PATTERN.test(mimeType))) {
    throw new Error(
      `${where}.mimeType must be an image media type such as "image/png" or "image/svg+xml", got ${JSON.stringify(mimeType)}`,
    );
  }
  const dataType = DATA_URI_PATTERN.exec(src)?.[1];
  if (dataType && mimeType !== undefined && dataType.toLowerCase() !== String(mimeType).toLowerCase()) {
    throw new Error(`${where}.mimeType is ${mimeType} but the data: URI says ${dataType}`);
  }
  if (
    sizes !== undefined &&
    (!Array.isArray(sizes) || !sizes.length || !sizes.every((size) => typeof size === 'string' && SIZE_PATTERN.test(size)))
  ) {
    throw new Error(`${where}.sizes must be a non-empty array of "WIDTHxHEIGHT" (e.g. "48x48") or "any", got ${JSON.stringify(sizes)}`);
  }
  if (theme !== undefined && theme !== 'light' && theme !== 'dark') {
    throw new Error(`${where}.theme must be "light" or "dark", got ${JSON.stringify(theme)}`);
  }
  return {
    src,
    ...(mimeType !== undefined ? { mimeType: mimeType } : {}),
    ...(sizes !== undefined ? { sizes: [...(sizes as string[])] } : {}),
    ...(theme !== undefined ? { theme } : {}),
  };
}

function isRenderableSource(src: string): boolean {
  if (src.startsWith('data:')) return DATA_URI_PATTERN.test(src);
  try {
    const url = new URL(src);
    return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
