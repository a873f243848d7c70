import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolEntry } from '../invocation/capability-entries.js';
import type { McpInvocation } from '../invocation/mcp-invocation.js';

/** A destructive call that needs a person's yes, from a client that cannot ask in the chat. */
export interface ApprovalRequest {
  tool: Pick<ToolEntry, 'name'> & { title?: string; description?: string };
  invocation: McpInvocation;
}

/** Where the approval of one exact call stands. */
export type ApprovalOutcome =
  /** Waiting for a person: relay `url` to the user. */
  | { status: 'pending'; approvalId: string; url: string; expiresAt: Date }
  /** A person chose Cancel: nothing ran. */
  | { status: 'denied'; approvalId: string }
  /** Nobody decided in time: nothing ran. */
  | { status: 'expired'; approvalId: string }
  /** A person chose Continue and the tool ran (once): its answer. */
  | { status: 'completed'; approvalId: string; result: CallToolResult };

/**
 * The application's approval links (docs/contract.md §4.3): `request` returns the outcome of an identical
 * earlier request when there is one, or records a new approval. Given as the `approvalLinks`
 * option of `McpModule.forRoot()`; without one, destructive tools are refused for clients that
 * cannot confirm in the chat, and the boot fails when a tool can only be confirmed by link.
 */
export interface McpApprovalLinks {
  request(request: ApprovalRequest): Promise<ApprovalOutcome>;
}

export const MCP_APPROVAL_LINKS = Symbol('MCP_APPROVAL_LINKS');
