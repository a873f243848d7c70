/** What the approval pages show about one approval (no secrets: arguments are redacted). */
export interface ApprovalView {
  id: string;
  /** The tenant the call acts in (`McpAdminDirectory.tenants` names it). */
  workspace: { id: string; slug?: string; name: string };
  /**
   * `title`: the tool's title (its name when it has none). `summary`: what Continue does, for a
   * person: the description without its guidance for the model (see personFacingSummary).
   */
  tool: { name: string; title: string; summary: string };
  /** The call's arguments, secrets redacted, as the agent sent them. */
  arguments: Record<string, unknown>;
  /**
   * The client as it named itself (2026 `_meta` clientInfo, or the handshake-era `initialize`: the
   * session's in stream mode, the caller's last one otherwise). `credential`: the label of the token
   * the call came with, shown beside it (and instead of it for a client that never named itself).
   */
  client: { name?: string; version?: string; credential?: string };
  requestedBy: { id: string; email?: string; name: string };
  /** `expired` is derived: pending past `expiresAt`. */
  status: 'pending' | 'executed' | 'failed' | 'denied' | 'expired';
  createdAt: Date;
  expiresAt: Date;
  decidedBy?: { id: string; email?: string; name: string };
  decidedAt?: Date;
  /** The tool's answer once it ran (the JSON envelope), for the result page. */
  result?: unknown;
}

/** What a Continue / Cancel click did. Only `executed`, `failed` and `denied` changed anything. */
export type DecisionOutcome =
  | { kind: 'executed'; approval: ApprovalView }
  | { kind: 'failed'; approval: ApprovalView }
  | { kind: 'denied'; approval: ApprovalView }
  /** Someone (maybe this person, in another tab) decided first: nothing ran again. */
  | { kind: 'already_decided'; approval: ApprovalView }
  | { kind: 'expired'; approval: ApprovalView }
  /** Unknown id, or a tenant where this person may not decide: indistinguishable on purpose. */
  | { kind: 'not_found' };
