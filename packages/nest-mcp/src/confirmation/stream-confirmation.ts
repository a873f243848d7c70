import { Inject, Injectable } from '@nestjs/common';
import type { ToolEntry } from '../invocation/capability-entries.js';
import { CapabilityAccess } from '../access/capability-access.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { InChatConfirmation } from '../invocation/mcp-invocation.js';
import type { McpCall } from '../contracts/call-hook.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { canElicitForm } from '../multi-round/input-required.js';
import { validateToolArguments } from '../schema/dto-argument.validator.js';
import { confirmationOf, confirmationQuestion } from './confirmation.interceptor.js';

/**
 * Nobody waits for a person inside the application's call hook. In stream mode (handshake era) a
 * destructive tool is confirmed in the chat by a server→client request that may wait up to
 * `clientRequestTimeoutMs`; asked from inside the tool's pipeline, that wait would happen inside
 * the `McpCallHook`, i.e. inside whatever the application opens around a call (a database
 * transaction holding a pooled connection). So the dispatcher asks here, before the hook, and
 * answers what the person said, which the call's invocation carries (`confirmedInChat`); `McpConfirmationInterceptor`
 * then only reads it, and the hook runs around a call whose outcome is already decided.
 *
 * Asks only for a call that would be confirmed in the chat and could run: the tool exists and is
 * destructive, its confirmation is not link-only, the client declared form elicitation, the caller
 * may use the tool, and its arguments are valid. Any other call goes into the hook unasked, and
 * fails (or is confirmed by link) there, audited as before. A caller may have at most
 * `maxPendingConfirmationsPerCaller` questions waiting (per process); above it the call is not
 * asked and answers `too_many_pending_confirmations`.
 */
@Injectable()
export class StreamConfirmation {
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly access: CapabilityAccess,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  /** Confirmations this caller has waiting for the user now (in this process). */
  pendingOf(callerKey: string): number {
    return this.pending.get(callerKey) ?? 0;
  }

  /**
   * For a `tools/call`: asks the person now when the call will be confirmed in the chat over the
   * stream, and answers what they said (undefined: not asked), which the call's invocation carries
   * (`McpInvocation.confirmedInChat`) to the confirmation interceptor.
   */
  async askFirst(call: McpCall): Promise<InChatConfirmation | undefined> {
    const { context, tool } = call;
    const stream = context.stream;
    if (context.era !== 'handshake' || context.approved || !stream?.canAsk || !canElicitForm(context.clientCapabilities)) return;
    if (!tool?.annotations.destructiveHint || confirmationOf(tool, this.options) === 'link') return;
    if (!this.access.allows('tool', tool, context) || !(await this.argumentsValid(tool, call.arguments))) return;

    const callerKey = this.options.callerKey(context.httpRequest) ?? '';
    const mine = this.pendingOf(callerKey);
    if (mine >= this.options.streams!.maxPendingConfirmationsPerCaller) {
      return 'too-many';
    }
    this.pending.set(callerKey, mine + 1);
    try {
      const question = confirmationQuestion(tool, call.arguments);
      const answer = await stream.ask('elicitation/create', question);
      const content = answer.content as Record<string, unknown> | undefined;
      return answer.action === 'accept' && content?.confirm === true ? 'accepted' : 'declined';
    } catch (error) {
      // No answer in time, the call aborted, the client refused: the hook sees the call fail.
      return { error };
    } finally {
      const left = (this.pending.get(callerKey) ?? 1) - 1;
      if (left > 0) this.pending.set(callerKey, left);
      else this.pending.delete(callerKey);
    }
  }

  /** As `ToolsHandler.call` validates them: only a call that would run is put to a person. */
  private argumentsValid(tool: ToolEntry, args: unknown): Promise<boolean> {
    return validateToolArguments(tool.input, args, { forbidUnknown: this.options.forbidUnknownArguments, raw: tool.rawInputSchema }).then(
      (validation) => validation?.ok !== false,
      () => false, // the call fails in the hook, where it is audited
    );
  }
}
