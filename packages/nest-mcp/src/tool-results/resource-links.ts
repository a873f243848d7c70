import type { CallToolResult, ResourceLink } from '@modelcontextprotocol/server';

/**
 * A resource a tool's answer points at (MCP `resource_link` content): `uri`, `name`, and optionally
 * `title`, `description`, `mimeType`, `size` (bytes). The client reads it with `resources/read`,
 * so a result can hand over a file too large for the answer itself. `type` is added by the layer.
 */
export type McpResourceLink = Omit<ResourceLink, 'type'>;

/**
 * The first revision with `resource_link` content. A client of an older one validates results
 * against a content union that lacks it, and would refuse the whole answer (envelope included).
 */
const RESOURCE_LINKS_SINCE = '2025-06-18';

/**
 * `result` with one `resource_link` block per link after its own content (the envelope's text stays
 * `content[0]`, where clients and job views read it), for a client whose revision has the block;
 * for an older one, `result` as it is: the data the links came from is in the envelope anyway.
 */
export function withResourceLinks(result: CallToolResult, links: readonly McpResourceLink[], protocolVersion: string): CallToolResult {
  // Revisions are ISO dates: string order is date order.
  if (!links.length || protocolVersion < RESOURCE_LINKS_SINCE) return result;
  return { ...result, content: [...result.content, ...links.map((link) => ({ ...link, type: 'resource_link' as const }))] };
}
