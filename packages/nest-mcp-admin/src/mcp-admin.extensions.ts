import { McpAdminApprovalLinks } from './approvals/mcp-admin-approval-links.js';

/**
 * The layer's extension points this package fills, for `McpModule.forRoot({ ...mcpAdminExtensions(), … })`:
 * approval links for destructive calls (`McpAdminApprovalLinks`, on the `mcp_approvals` table).
 */
export function mcpAdminExtensions() {
  return { approvalLinks: { useExisting: McpAdminApprovalLinks } };
}
