import type { ToolEntry } from '../invocation/capability-entries.js';
import type { McpInvocation } from '../invocation/mcp-invocation.js';
import type { McpToolAnnotations } from '../options/mcp-decorator.options.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { clientSupportsApps } from '../views/apps-extension.js';
import { personFacingSummary } from './person-facing-summary.js';

/**
 * The `_meta` key of a pending confirmation's result under which the confirmation view finds the
 * approval it shows (docs/confirmation-and-idempotency.md, "In the chat, as an app view"). In
 * `_meta`, which hosts hand to the view and keep out of the model's context, because it carries the
 * approval's secret.
 */
export const APPROVAL_VIEW_META = 'nest-mcp/approval';

/** What the confirmation view gets about the approval it shows, in the pending result's `_meta`. */
export interface ApprovalViewMeta {
  id: string;
  /** Proves to the tool the view decides with that the decision comes from the view (`McpApprovalViewSecrets`). */
  secret: string;
  /** The approval page, for a person who prefers it (or must use it). */
  url: string;
  expires_at: string;
  /** `summary`: what Continue does, told to a person (see personFacingSummary). */
  tool: { name: string; title: string; summary: string };
  /** The call's arguments, as the agent sent them (the agent's own words, already in the conversation). */
  arguments: Record<string, unknown>;
}

/**
 * The view a destructive tool lists as its `_meta.ui.resourceUri` when it has none of its own: the
 * McpModule option `confirmationView`, so that hosts that render app views show the approval where
 * the call was made.
 */
export function confirmationViewFor(
  annotations: McpToolAnnotations,
  options: Pick<ResolvedMcpOptions, 'confirmationView'>,
): string | undefined {
  return annotations.destructiveHint ? options.confirmationView : undefined;
}

/**
 * Whether a pending approval of this call is answered for the confirmation view: the server has
 * one, the tool lists it (a tool with a view of its own shows that one), and the client declared
 * the MCP Apps extension.
 */
export function answersWithView(
  tool: ToolEntry,
  invocation: McpInvocation,
  options: Pick<ResolvedMcpOptions, 'confirmationView'>,
): boolean {
  const view = options.confirmationView;
  if (view === undefined || !clientSupportsApps(invocation)) return false;
  const ui = (tool.definition._meta as { ui?: { resourceUri?: unknown } } | undefined)?.ui;
  return ui?.resourceUri === view;
}

/** The view's part of a pending result: the approval, what the call does, its arguments, the secret. */
export function approvalViewMeta(
  tool: ToolEntry,
  invocation: McpInvocation,
  approval: { id: string; url: string; expiresAt: Date; secret: string },
): ApprovalViewMeta {
  return {
    id: approval.id,
    secret: approval.secret,
    url: approval.url,
    expires_at: approval.expiresAt.toISOString(),
    tool: { name: tool.name, title: tool.definition.title ?? tool.name, summary: personFacingSummary(tool.definition.description) },
    arguments: invocation.arguments ?? {},
  };
}
