import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { describesApprovalIds, type ApprovalDescriber } from './approval-describer.js';
import type { ApprovalView } from '../options/approval.view.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What an id argument points at, in words: id → e.g. "INV-000123 · Acme Logistics · 3,750.00 MXN". */
export type References = ReadonlyMap<string, string>;

export const NOT_FOUND_REFERENCE = '(not found)';

interface Registered {
  describer: ApprovalDescriber;
  name: string;
  claims: Array<string | RegExp>;
}

/**
 * What the ids of an approval's top-level arguments name, so the approver sees what would change,
 * not just UUIDs: asks the `ApprovalDescriber` of each argument (any module's provider marked
 * `@DescribesApprovalIds(...)`, found at bootstrap), in the approval's workspace. An id its
 * describer does not know reads "(not found)"; an argument no describer claims shows its id only.
 */
@Injectable()
export class ApprovalReferences implements OnApplicationBootstrap {
  private readonly logger = new Logger('ApprovalReferences');
  private describers: Registered[] = [];

  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    const found = new Map<ApprovalDescriber, Registered>();
    for (const wrapper of this.discovery.getProviders({ metadataKey: describesApprovalIds.KEY })) {
      const instance: unknown = wrapper.instance;
      if (!isDescriber(instance) || found.has(instance)) continue;
      const claims = this.discovery.getMetadataByDecorator(describesApprovalIds, wrapper) ?? [];
      found.set(instance, { describer: instance, name: String(wrapper.name), claims });
    }
    this.describers = [...found.values()];
    const exact = new Map<string, string>();
    for (const { name, claims } of this.describers) {
      for (const claim of claims) {
        if (typeof claim !== 'string') continue;
        const other = exact.get(claim);
        if (other) throw new Error(`Approval describers ${other} and ${name} both describe the argument "${claim}": keep one.`);
        exact.set(claim, name);
      }
    }
  }

  /** The describer of an argument: the one naming it exactly, else the first whose pattern matches. */
  private describerOf(argument: string): Registered | undefined {
    return (
      this.describers.find((d) => d.claims.includes(argument)) ??
      this.describers.find((d) => d.claims.some((claim) => claim instanceof RegExp && claim.test(argument)))
    );
  }

  async of(approval: ApprovalView): Promise<References> {
    const asked = new Map<Registered, Map<string, Set<string>>>();
    for (const [argument, value] of Object.entries(approval.arguments ?? {})) {
      if (typeof value !== 'string' || !UUID.test(value)) continue;
      const registered = this.describerOf(argument);
      if (!registered) continue;
      const byArgument = asked.get(registered) ?? new Map<string, Set<string>>();
      byArgument.set(argument, (byArgument.get(argument) ?? new Set()).add(value.toLowerCase()));
      asked.set(registered, byArgument);
    }
    const references = new Map<string, string>();
    const answers = [...asked].flatMap(([registered, byArgument]) =>
      [...byArgument].map(async ([argument, ids]) => {
        const context = { workspaceId: approval.workspace.id, tool: approval.tool.name, argument };
        try {
          const described = await registered.describer.describe([...ids], context);
          for (const id of ids) references.set(id, described.get(id) ?? NOT_FOUND_REFERENCE);
        } catch (error) {
          // A broken describer must not keep a person from deciding: the ids show as they are.
          this.logger.warn(`${registered.name} could not describe ${argument} of approval ${approval.id}: ${String(error)}`);
        }
      }),
    );
    await Promise.all(answers);
    return references;
  }
}

function isDescriber(value: unknown): value is ApprovalDescriber {
  return typeof value === 'object' && value !== null && typeof (value as ApprovalDescriber).describe === 'function';
}
