import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { Inject, Injectable, Optional, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { from, mergeMap, of, type Observable } from 'rxjs';
import type { McpToolOptions } from '../options/mcp-decorator.options.js';
import type { ToolEntry } from '../invocation/capability-entries.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import { McpExecutionContext } from '../invocation/mcp-execution-context.js';
import type { McpInvocation } from '../invocation/mcp-invocation.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { canElicitForm, inputRequired, inputResponse } from '../multi-round/input-required.js';
import { McpRequestState } from '../multi-round/request-state.js';
import { ToolReply } from '../tool-results/tool-reply.js';
import { personFacingSummary } from './person-facing-summary.js';
import { McpApprovalViewSecrets } from './approval-view-secrets.js';
import { answersWithView, APPROVAL_VIEW_META, approvalViewMeta } from './confirmation-view.js';
import { MCP_APPROVAL_LINKS, type ApprovalOutcome, type McpApprovalLinks } from '../contracts/approval-links.js';

/** The key of the confirmation in `inputRequests` / `inputResponses`. */
export const CONFIRM_INPUT = 'confirm';

/** What a confirmation `requestState` carries: which question it answers. */
interface ConfirmationState {
  confirm: string;
}

/**
 * Nothing destructive runs without a person's yes (docs/contract.md §4). Applied by the layer to every tool
 * annotated `destructiveHint: true`, so the tool itself has no confirmation code:
 * - a 2026-era client that declared form elicitation is asked in the chat (`input_required`, with
 *   a sealed `requestState` bound to this exact call); a decline means the tool does not run;
 *   unless the tool (`confirmation: 'link'`) or the server (`destructiveConfirmation: 'link'`)
 *   requires the approval page;
 * - in stream mode, a handshake-era client that declared form elicitation is asked the same
 *   question over the call's stream, by `StreamConfirmation` before the application's call hook
 *   runs; this reads its answer;
 * - any other client gets an approval link from the application's gateway (`pending_confirmation`),
 *   or a refusal when the server is configured to refuse or has no gateway; a client that declared
 *   MCP Apps gets the same pending approval with what the confirmation view (`confirmationView`)
 *   needs to show it and decide it in the chat, in the result's `_meta`.
 * Over REST (not an MCP invocation) it does nothing: REST routes have their own authorization.
 */
@Injectable()
export class McpConfirmationInterceptor implements NestInterceptor {
  constructor(
    private readonly states: McpRequestState,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly viewSecrets: McpApprovalViewSecrets,
    @Optional() @Inject(MCP_APPROVAL_LINKS) private readonly approvals?: McpApprovalLinks,
  ) {}

  /** Whether a tool with these annotations is confirmed at all (decided once, at bootstrap). */
  appliesTo(tool: Pick<McpToolOptions, 'annotations'>): boolean {
    return !!tool.annotations?.destructiveHint;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const invocation = McpExecutionContext.invocation(context);
    // Approved on a page, or a task's run (confirmed before the task was created): not asked again.
    if (!invocation || invocation.kind !== 'tool' || invocation.approved || invocation.taskRun) return next.handle();
    const tool = invocation.tool;
    if (!tool?.annotations.destructiveHint) return next.handle();
    return from(this.decide(tool, invocation)).pipe(mergeMap((answer) => (answer === PROCEED ? next.handle() : of(answer))));
  }

  private async decide(
    tool: ToolEntry,
    invocation: McpInvocation,
  ): Promise<typeof PROCEED | ToolReply | CallToolResult | InputRequiredResult> {
    const linkOnly = confirmationOf(tool, this.options) === 'link';
    if (!linkOnly && invocation.era === 'stateless' && canElicitForm(invocation.clientCapabilities)) return this.inChat(tool, invocation);
    // Stream mode, handshake era: a client that declared elicitation is asked over the call's stream
    // (by StreamConfirmation, before the application's call hook: this reads the answer).
    if (!linkOnly && invocation.stream?.canAsk && canElicitForm(invocation.clientCapabilities))
      return this.inChatOverStream(tool, invocation);
    if (this.options.destructiveTools === 'refuse' || !this.approvals) return refusal(tool.name, linkOnly);
    const outcome = await this.approvals.request({ tool: { name: tool.name, ...pick(tool) }, invocation });
    // A `link` tool keeps the page, where a person signs in: its view shows the link (see the docs' trust model).
    if (outcome.status === 'pending' && !linkOnly && answersWithView(tool, invocation, this.options))
      return this.inView(tool, invocation, outcome);
    return replyFor(outcome, tool.name);
  }

  /**
   * The pending approval, for the confirmation view the client renders beside the result: the same
   * record and link as the link path (the text, for the model and a host that shows no view), and
   * in `_meta`, which the view gets and the model does not, what the view shows and the secret its
   * Continue / Cancel must carry.
   */
  private inView(tool: ToolEntry, invocation: McpInvocation, outcome: Extract<ApprovalOutcome, { status: 'pending' }>): ToolReply {
    const { approvalId: id, url, expiresAt } = outcome;
    const meta = approvalViewMeta(tool, invocation, { id, url, expiresAt, secret: this.viewSecrets.secretFor(id) });
    return ToolReply.pendingConfirmation(
      { id, url, expires_at: expiresAt.toISOString() },
      `Nothing has been done yet. The user can choose Continue or Cancel in the approval shown with this result, or open ${url} ` +
        `(it expires at ${expiresAt.toISOString()}); then call ${tool.name} again with the same arguments to get the result.`,
      { [APPROVAL_VIEW_META]: meta },
    );
  }

  /**
   * Handshake-era confirmation over the stream. The dispatcher asked already, before the call hook
   * (`StreamConfirmation`), so that nothing the hook opens waits for a person: this only reads the
   * answer. A failure to get one (no answer in time, the call aborted) fails the call, nothing done.
   */
  private async inChatOverStream(tool: ToolEntry, invocation: McpInvocation) {
    const outcome = invocation.confirmedInChat;
    if (outcome === 'accepted') return PROCEED;
    if (outcome === 'declined') return declined(tool.name);
    if (outcome === 'too-many') return tooManyPending(tool.name, this.options.streams!.maxPendingConfirmationsPerCaller);
    if (outcome) throw outcome.error;
    // Not asked before the hook (not expected): ask now.
    const answer = await invocation.elicit(confirmationQuestion(tool, invocation.arguments));
    if (answer.action === 'accept' && answer.content?.confirm === true) return PROCEED;
    return declined(tool.name);
  }

  /** Multi round-trip confirmation: ask, then run only on an accepted yes for this exact call. */
  private async inChat(tool: ToolEntry, invocation: McpInvocation) {
    const asked = (invocation.state as ConfirmationState | undefined)?.confirm === tool.name;
    if (asked) {
      const answer = inputResponse(invocation.inputResponses, CONFIRM_INPUT);
      const yes = answer.kind === 'elicit' && answer.action === 'accept' && answer.content?.confirm === true;
      // A yes is spent with the call (a confirmed call that fails and rolls back may be retried with
      // the same state). Any other answer is final: a decline answers an error, which rolls the call
      // back, and its state must not come back to life for a replay that says yes.
      await this.states.recordUse(invocation, { final: !yes });
      if (yes) return PROCEED;
      if (answer.kind === 'elicit') return declined(tool.name);
      // No usable answer for the question we asked: ask again (SEP-2322 re-request).
    }
    return inputRequired({
      inputRequests: { [CONFIRM_INPUT]: inputRequired.elicit(confirmationQuestion(tool, invocation.arguments)) },
      requestState: await this.states.seal({ confirm: tool.name } satisfies ConfirmationState, invocation, { recordUse: 'by-handler' }),
    });
  }
}

const PROCEED = Symbol('proceed');

/** The question put to the user about a call with these arguments (as the client sent them), the same in both eras. */
export function confirmationQuestion(tool: ToolEntry, args: Record<string, unknown> | undefined) {
  const title = tool.definition.title ?? tool.name;
  return {
    message: `Confirm "${title}"? ${personFacingSummary(tool.definition.description)}\nArguments: ${JSON.stringify(args ?? {})}`.trim(),
    requestedSchema: {
      type: 'object' as const,
      properties: { confirm: { type: 'boolean' as const, title: 'Yes, do it', description: 'This cannot be undone.' } },
      required: ['confirm'],
    },
  };
}

function declined(name: string): ToolReply {
  return ToolReply.failed([
    {
      code: 'confirmation_declined',
      message: `The user did not confirm ${name}, so nothing was done. Do not retry unless the user asks again.`,
      retryable: false,
    },
  ]);
}

function tooManyPending(name: string, pending: number): ToolReply {
  return ToolReply.failed([
    {
      code: 'too_many_pending_confirmations',
      message:
        `${pending} confirmations of yours are already waiting for the user, so ${name} was not asked and nothing was done. ` +
        'Wait until the user has answered them, then call it again.',
      retryable: true,
    },
  ]);
}

function pick(tool: ToolEntry) {
  return {
    ...(tool.definition.title ? { title: tool.definition.title } : {}),
    ...(tool.definition.description ? { description: tool.definition.description } : {}),
  };
}

/**
 * The stricter of the tool's own confirmation and the server's minimum: an operator can require
 * the approval page for every destructive tool, a tool cannot lower that.
 */
export function confirmationOf(tool: Pick<ToolEntry, 'confirmation'>, options: Pick<ResolvedMcpOptions, 'destructiveConfirmation'>) {
  return tool.confirmation === 'link' || options.destructiveConfirmation === 'link' ? 'link' : 'elicitation-or-link';
}

function refusal(name: string, linkOnly: boolean): ToolReply {
  const why = linkOnly
    ? 'on the approval page, which this server does not offer over MCP'
    : 'which this client cannot give in the chat (it did not declare elicitation)';
  return ToolReply.failed([
    {
      code: 'confirmation_required',
      message: `${name} is destructive and needs a person's confirmation ${why}. Nothing was done. Ask the user to do it in the application.`,
      retryable: false,
    },
  ]);
}

/** What the agent gets for each state of an approval. */
function replyFor(outcome: ApprovalOutcome, name: string): ToolReply | CallToolResult {
  switch (outcome.status) {
    case 'completed':
      return outcome.result;
    case 'pending':
      return ToolReply.pendingConfirmation(
        { id: outcome.approvalId, url: outcome.url, expires_at: outcome.expiresAt.toISOString() },
        `Nothing has been done yet. Ask the user to open ${outcome.url} and choose Continue (the link expires at ` +
          `${outcome.expiresAt.toISOString()}), then call ${name} again with the same arguments to get the result.`,
      );
    case 'denied':
      return ToolReply.failed(
        [
          {
            code: 'approval_denied',
            message: `A person chose Cancel on the approval page: ${name} did not run. Do not retry.`,
            retryable: false,
          },
        ],
        { id: outcome.approvalId },
      );
    case 'expired':
      return ToolReply.failed(
        [
          {
            code: 'approval_expired',
            message: `Nobody approved ${name} in time, so it did not run. Call it again to get a new approval link if the user still wants it.`,
            retryable: true,
          },
        ],
        { id: outcome.approvalId },
      );
  }
}
