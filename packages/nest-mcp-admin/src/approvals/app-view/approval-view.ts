import type { McpViewOptions } from '@nest-mcp/core';
import { APPROVAL_VIEW_HTML } from './approval-view.html.js';

/** The `ui://` URI of the approval view. */
export const APPROVAL_VIEW_URI = 'ui://nest-mcp/approval';

/** The approval view: self-contained (no `csp` origins), so the layer's policy allows nothing outside the document. */
export const APPROVAL_VIEW: McpViewOptions = {
  uri: APPROVAL_VIEW_URI,
  title: 'Approval',
  description: "A destructive call's approval, for the person in the chat: what it does, its arguments, Continue or Cancel.",
  html: APPROVAL_VIEW_HTML,
  prefersBorder: true,
};

/**
 * The McpModule options that show the approval of a destructive call as an app view, in hosts
 * that render MCP Apps: `McpModule.forRoot({ ...mcpAdminViews(), … })`, or in the options
 * `forRootAsync`'s factory returns (they are options, not extension points). The view decides
 * with `McpApprovals.decide`, as the pages do, for the person `callerPerson` names.
 */
export function mcpAdminViews(): { views: McpViewOptions[]; confirmationView: string } {
  return { views: [APPROVAL_VIEW], confirmationView: APPROVAL_VIEW_URI };
}
