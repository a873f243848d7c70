import { DiscoveryService } from '@nestjs/core';

/** Which call a describer is asked about: ids are looked up in this workspace only. */
export interface ApprovalDescriberContext {
  workspaceId: string;
  /** The tool the approval is for. */
  tool: string;
  /** The argument the ids came from (one of the describer's `arguments`). */
  argument: string;
}

/**
 * Puts words on the ids of an approval's arguments, so the person deciding recognises the records
 * a call would change ("Ticket #42 · Printer on fire") instead of reading UUIDs. The approval
 * pages ask it about the top-level arguments it declares (`@DescribesApprovalIds(...)`) whose value
 * is a UUID.
 *
 * A module registers one as a provider of its own module:
 *
 * ```ts
 * @Injectable()
 * @DescribesApprovalIds('ticket_id')
 * export class TicketApprovalDescriber implements ApprovalDescriber {
 *   async describe(ids: string[], { workspaceId }: ApprovalDescriberContext) {
 *     const rows = await this.tickets.findMany({ where: { id: { in: ids }, workspaceId } });
 *     return new Map(rows.map((t) => [t.id, `Ticket #${t.number} · ${t.subject}`]));
 *   }
 * }
 * ```
 *
 * Rules: read only, in `context.workspaceId` only (the page is shown to approvers of that
 * workspace; a record of another workspace must read as not found). An id missing from the
 * answer reads "(not found)". A describer that throws describes nothing (the page still shows the
 * ids, and the failure is logged): it never blocks a decision.
 */
export interface ApprovalDescriber {
  /** `ids`: the distinct UUIDs (lower case) the approval's arguments named; answer id → words. */
  describe(ids: string[], context: ApprovalDescriberContext): Promise<ReadonlyMap<string, string>>;
}

/**
 * Marks a provider as an {@link ApprovalDescriber} for the given top-level argument names (exact
 * names, or patterns such as `/_ticket_id$/`). Two describers may not claim the same exact name.
 */
export const DescribesApprovalIds = (...argumentNames: Array<string | RegExp>) => describesApprovalIds(argumentNames);

/** The discoverable decorator behind {@link DescribesApprovalIds}: its metadata is the argument names. */
export const describesApprovalIds = DiscoveryService.createDecorator<Array<string | RegExp>>();
