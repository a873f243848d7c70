import { McpProtocolError } from './mcp-protocol.error.js';

/**
 * The longest resource URI the endpoint accepts (docs/contract.md §5): far above any real one,
 * far below what matching it against every template, storing a subscription to it or quoting it
 * back would cost.
 */
export const MAX_RESOURCE_URI_LENGTH = 8192;

/** How much of a URI an error message quotes: enough to recognise it, never a megabyte echoed back. */
const QUOTED_URI_LENGTH = 200;

/** A resource URI parameter: a non-empty string of at most {@link MAX_RESOURCE_URI_LENGTH} characters, else -32602. */
export function resourceUriParam(value: unknown, field = 'uri'): string {
  if (typeof value !== 'string' || !value) throw McpProtocolError.invalidParams(`Invalid params: "${field}" is required`);
  if (value.length > MAX_RESOURCE_URI_LENGTH) {
    throw McpProtocolError.invalidParams(
      `Invalid params: "${field}" is ${value.length} characters long; a resource URI has at most ${MAX_RESOURCE_URI_LENGTH}`,
      { field, length: value.length, maxLength: MAX_RESOURCE_URI_LENGTH },
    );
  }
  return value;
}

/** A URI as an error message may quote it. */
export function quotedUri(uri: string): string {
  return uri.length <= QUOTED_URI_LENGTH ? uri : `${uri.slice(0, QUOTED_URI_LENGTH)}… (${uri.length} characters)`;
}
