import type { Implementation } from '@modelcontextprotocol/server';
import type { Request } from 'express';

/** A tool call a person approved, to run in-process (`McpDispatcher.runApprovedCall`). */
export interface McpApprovedCall {
  /** The tool and its arguments, exactly as the agent sent them. */
  tool: string;
  arguments: Record<string, unknown>;
  /** The approval the person gave: confirmation is not asked again, and the call is marked with it. */
  approvalId: string;
  /**
   * The HTTP request of the person who approved, carrying their identity: the call runs as them
   * (guards, access policy and call hook read it as they read an agent's request).
   */
  actingRequest: Request;
  /** The client that asked for the call, for the audit trail. */
  clientInfo?: Implementation;
}
