import { Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { MCP_ACCESS_POLICY, type McpAccessPolicy, type McpCapability } from '../contracts/access-policy.js';
import { paginate } from '../protocol/list-pagination.js';

type Named = { name: string; scopes: string[] };

const NAME_OF = { tool: 'the tool to call', prompt: 'the prompt to get' } as const;

/**
 * Applies the configured access policy (the `accessPolicy` option; allow-all by default) to the
 * lists and the calls of every handler, so a list never shows what a call would refuse.
 */
@Injectable()
export class CapabilityAccess {
  constructor(
    @Inject(MCP_ACCESS_POLICY) private readonly policy: McpAccessPolicy,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  visible<T extends Named>(kind: McpCapability['kind'], entries: T[], context: McpRequestContext): T[] {
    return entries.filter((entry) => this.policy.canUse({ kind, name: entry.name, scopes: entry.scopes }, context));
  }

  /** One page (the `cursor` param of a list request) of what the caller may see. */
  page<T extends Named>(
    kind: McpCapability['kind'],
    entries: T[],
    cursor: unknown,
    context: McpRequestContext,
  ): { page: T[]; nextCursor?: string } {
    return paginate(this.visible(kind, entries, context), cursor, this.options.pageSize);
  }

  /**
   * The tool or prompt a call names (`params.name`), once the caller may use it: `-32602` for a
   * missing or unknown name (pointing at the list that has the right ones), the policy's refusal
   * for one the caller may not use.
   */
  async named<T extends Named>(kind: 'tool' | 'prompt', name: unknown, entry: T | undefined, context: McpRequestContext): Promise<T> {
    if (typeof name !== 'string') throw McpProtocolError.invalidParams(`Invalid params: "name" (${NAME_OF[kind]}) is required`);
    if (!entry) throw McpProtocolError.invalidParams(`Unknown ${kind}: ${name}. Call ${kind}s/list to see the ${kind}s you can use.`);
    await this.assert(kind, entry, context);
    return entry;
  }

  /** Whether the caller may use the capability; never throws (a policy that fails says no). */
  allows(kind: McpCapability['kind'], entry: Named, context: McpRequestContext): boolean {
    try {
      return this.policy.canUse({ kind, name: entry.name, scopes: entry.scopes }, context);
    } catch {
      return false;
    }
  }

  /** Throws the policy's refusal when the caller may not use the capability. */
  async assert(kind: McpCapability['kind'], entry: Named, context: McpRequestContext): Promise<void> {
    const capability = { kind, name: entry.name, scopes: entry.scopes };
    if (!this.policy.canUse(capability, context)) throw await this.policy.refuse(capability, context);
  }
}
