import type { McpToolMetadata } from '../options/mcp-decorator.options.js';
import type { McpViews } from './mcp-views.js';
import { assertVisibility } from './view-checks.js';

/**
 * A tool's `_meta` for MCP Apps: `ui.resourceUri` (the view that shows its results, declared or
 * linked here) and `ui.visibility`; also the flat `ui/resourceUri` key, which hosts written
 * before the nested form still read (the extension's own server helpers send both). Nothing for
 * a tool with neither option.
 */
export function toolUiMeta(
  meta: Pick<McpToolMetadata, 'name' | 'view' | 'visibility'>,
  views: McpViews,
  source: string,
): { _meta?: Record<string, unknown> } {
  assertVisibility(meta.visibility, source);
  const resourceUri = meta.view !== undefined ? views.link(meta.view, meta.name, source) : undefined;
  if (!resourceUri && !meta.visibility) return {};
  const ui = { ...(resourceUri ? { resourceUri } : {}), ...(meta.visibility ? { visibility: [...meta.visibility] } : {}) };
  return { _meta: { ui, ...(resourceUri ? { 'ui/resourceUri': resourceUri } : {}) } };
}
