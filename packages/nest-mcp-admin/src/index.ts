export { McpAdminModule } from './mcp-admin.module.js';
export type { McpAdminMountOptions } from './mcp-admin.module-definition.js';
export { mcpAdminExtensions } from './mcp-admin.extensions.js';
export type {
  McpAdminDirectory,
  McpAdminIdentity,
  McpAdminOptions,
  McpAdminPerson,
  McpAdminPurpose,
  McpAdminRequester,
} from './options/mcp-admin.options.js';
export { headerIdentity, type HeaderIdentityOptions } from './identity/header-identity.js';
export { McpAdminApprovalLinks } from './approvals/mcp-admin-approval-links.js';
export { McpApprovals } from './approvals/mcp-approvals.js';
export { APPROVAL_VIEW_URI, mcpAdminViews } from './approvals/app-view/approval-view.js';
export { APPROVAL_DECIDE_TOOL, type ApprovalDecision } from './approvals/app-view/approval-decide.tool.js';
export type { ApprovalView, DecisionOutcome } from './options/approval.view.js';
export { DescribesApprovalIds, type ApprovalDescriber, type ApprovalDescriberContext } from './approvals/approval-describer.js';
export { McpAdminCsrf } from './pages/csrf.js';
export { McpAdminPages } from './pages/mcp-admin-pages.js';
export { html, type SafeHtml } from './pages/views/html.js';
