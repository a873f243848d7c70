import { ConflictException, ForbiddenException, GoneException, HttpException, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { McpTool, type McpInvocation } from '@nest-mcp/core';
import { McpApprovalViewSecrets } from '@nest-mcp/core/extensions';
import { MCP_ADMIN_OPTIONS, type ResolvedMcpAdminOptions } from '../../options/mcp-admin.options.js';
import type { ApprovalView } from '../../options/approval.view.js';
import { McpApprovals } from '../mcp-approvals.js';
import { UUID } from '../approval-row.js';

/** The tool the approval view decides with. */
export const APPROVAL_DECIDE_TOOL = 'mcp_approval_decide';

interface DecideArguments {
  approval_id: string;
  decision: 'continue' | 'cancel';
  view_secret: string;
}

/** What a decision did, for the view (the decide tool's `data`). */
export interface ApprovalDecision {
  approval_id: string;
  tool: string;
  /** `executed`: Continue ran the call; `failed`: it ran and refused (nothing kept); `denied`: Cancel. */
  status: 'executed' | 'failed' | 'denied';
  /** The call's answer (its envelope), once it ran. */
  result?: unknown;
  /** Why the call refused, when `failed`. */
  message?: string;
}

/**
 * Continue / Cancel from the approval view (`mcpAdminViews()`), the same decision as the approval
 * page's: `McpApprovals.decide` (one conditional update from `pending`, the `approval/continue` /
 * `approval/cancel` audit row, the call run once as the person who decided), for the person the
 * MCP caller is (`callerPerson`), who must be allowed to decide in the approval's tenant. Listed
 * for the views only (`visibility: ['app']`, which hosts keep from the model), and a decision must
 * carry the approval's view secret, which only the pending result's `_meta` holds: a model that
 * called it anyway, without the secret, is refused.
 */
@Injectable()
export class ApprovalDecideTool {
  constructor(
    private readonly approvals: McpApprovals,
    private readonly secrets: McpApprovalViewSecrets,
    @Inject(MCP_ADMIN_OPTIONS) private readonly options: ResolvedMcpAdminOptions,
  ) {}

  @McpTool({
    name: APPROVAL_DECIDE_TOOL,
    title: 'Decide an approval (approval view)',
    description:
      'Called by the approval view only, when the person presses Continue or Cancel. Never use for: anything an assistant ' +
      'does; approving is for a person. Side effects: Continue runs the approved call once, as that person; Cancel ends the approval.',
    visibility: ['app'],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    inputSchema: {
      type: 'object',
      properties: {
        approval_id: { type: 'string', pattern: UUID.source, description: 'The approval, from the pending result.' },
        decision: { type: 'string', enum: ['continue', 'cancel'], description: "The person's choice." },
        view_secret: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: "The approval's secret, from the pending result's _meta.",
        },
      },
      required: ['approval_id', 'decision', 'view_secret'],
      additionalProperties: false,
    },
  })
  async decide(args: DecideArguments, invocation: McpInvocation): Promise<ApprovalDecision> {
    const { approval_id: id, decision } = args;
    // First, before anything is looked up: no secret, no answer about the approval at all.
    if (!this.secrets.verify(id, args.view_secret)) throw refusal(ForbiddenException, 'approval_view_only', notFromView(id));
    const personId = await this.options.callerPerson?.(invocation);
    if (!personId) throw refusal(ForbiddenException, 'approver_required', askAnApprover(id, this.approvals.url(id)));
    // The call runs as the person who decided (`actAs` sets them on this request), not as the MCP request's caller.
    const acting = Object.create(invocation.httpRequest) as Request;
    const outcome = await this.approvals.decide(id, personId, decision, acting);
    switch (outcome.kind) {
      case 'not_found':
        throw refusal(ForbiddenException, 'approver_required', askAnApprover(id, this.approvals.url(id)));
      case 'already_decided':
        throw refusal(
          ConflictException,
          'approval_already_decided',
          `Approval ${id} was already decided (${outcome.approval.status}): nothing was done again.`,
        );
      case 'expired':
        throw refusal(
          GoneException,
          'approval_expired',
          `Approval ${id} expired before anyone decided: nothing was done. The assistant can ask again if the user still wants it.`,
        );
      default:
        return decided(outcome.kind, outcome.approval);
    }
  }
}

function decided(status: ApprovalDecision['status'], approval: ApprovalView): ApprovalDecision {
  const message = status === 'failed' ? firstErrorOf(approval.result) : undefined;
  return {
    approval_id: approval.id,
    tool: approval.tool.name,
    status,
    ...(approval.result !== undefined ? { result: approval.result } : {}),
    ...(message ? { message } : {}),
  };
}

/** A tool error the view shows as it is; none is worth retrying with the same arguments. */
function refusal(Exception: new (body: object) => HttpException, code: string, message: string): HttpException {
  return new Exception({ errors: [{ code, message, retryable: false }] });
}

function notFromView(id: string): string {
  return (
    `The view secret does not match approval ${id}: only the approval view shown with the pending result can decide it in the chat. ` +
    'Nothing was done. An assistant cannot approve: ask the user.'
  );
}

function askAnApprover(id: string, url: string): string {
  return (
    `You may not decide approval ${id}: only a person allowed to approve in its workspace can. Nothing was done. ` +
    `Ask one of them to open ${url} and choose Continue or Cancel.`
  );
}

function firstErrorOf(envelope: unknown): string | undefined {
  const errors = (envelope as { errors?: Array<{ message?: unknown }> } | undefined)?.errors;
  const message = Array.isArray(errors) ? errors[0]?.message : undefined;
  return typeof message === 'string' ? message : undefined;
}
