import type { McpResourceLink } from './resource-links.js';
import type { ToolApproval, ToolError, ToolStatus } from './tool-result.envelope.js';

/**
 * What a tool returns when the answer is more than plain success: the layer puts it in the JSON
 * envelope (docs/contract.md §3.3). Plain data returned by a handler is `success`.
 */
export class ToolReply {
  private constructor(
    readonly status: ToolStatus,
    readonly ok: boolean,
    readonly data: unknown,
    readonly errors: ToolError[],
    readonly nextQuestion?: string,
    readonly approval?: ToolApproval,
    /** `resource_link` blocks after the envelope (see {@link ToolReply.success}). */
    readonly resourceLinks: readonly McpResourceLink[] = [],
    /** The result's `_meta` (see {@link ToolReply.pendingConfirmation}). */
    readonly meta?: Record<string, unknown>,
  ) {}

  /**
   * Success whose answer also points at resources (`resource_link` content after the envelope's
   * text, for clients of 2025-06-18 and later): e.g. a file the work stored, which the client
   * reads with `resources/read` instead of getting its bytes in the answer. `data` is the
   * envelope's, as if the handler had returned it.
   */
  static success(data: unknown, options: { resourceLinks?: readonly McpResourceLink[] } = {}): ToolReply {
    return new ToolReply('success', true, data, [], undefined, undefined, options.resourceLinks ?? []);
  }

  /** The user must supply something first: `ok: false`, `isError: true`, and the question to ask. */
  static needsMoreInfo(nextQuestion: string, errors: ToolError[], data?: unknown): ToolReply {
    return new ToolReply('needs_more_info', false, data, errors, nextQuestion);
  }

  /** Accepted, finishing later: `ok: true` with what identifies the pending work, and how to follow it. */
  static queued(data: unknown, nextQuestion?: string): ToolReply {
    return new ToolReply('queued', true, data, [], nextQuestion);
  }

  /** The tool did not do what was asked, and says why (a refusal, a declined confirmation). */
  static failed(errors: ToolError[], approval?: ToolApproval): ToolReply {
    return new ToolReply('failed', false, undefined, errors, undefined, approval);
  }

  /**
   * Nothing ran: a person must confirm first (see the confirmation flow). Not an error
   * (`isError` stays off): the request stands and its approval is on record. `meta`: the result's
   * `_meta`, for what the client's app view needs and the model must not see (the confirmation view's).
   */
  static pendingConfirmation(approval: ToolApproval, nextQuestion?: string, meta?: Record<string, unknown>): ToolReply {
    return new ToolReply('pending_confirmation', false, undefined, [], nextQuestion, approval, [], meta);
  }
}
