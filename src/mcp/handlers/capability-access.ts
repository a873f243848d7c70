import { Inject, Injectable } from '@nestjs/common';
import type { McpRequestContext } from '../mcp-invocation.js';
import { MCP_ACCESS_POLICY, type McpAccessPolicy, type McpCapability } from '../server/mcp-access.policy.js';

/** Applies the configured access policy (the `accessPolicy` option; allow-all by default). */
@Injectable()
export class CapabilityAccess {
  constructor(@Inject(MCP_ACCESS_POLICY) private readonly policy: McpAccessPolicy) {}

  visible<T extends { name: string; scopes: string[] }>(kind: McpCapability['kind'], entries: T[], context: McpRequestContext): T[] {
    return entries.filter((entry) => this.policy.canUse({ kind, name: entry.name, scopes: entry.scopes }, context));
  }

  /** Throws the policy's refusal when the caller may not use the capability. */
  assert(kind: McpCapability['kind'], entry: { name: string; scopes: string[] }, context: McpRequestContext): void {
    const capability = { kind, name: entry.name, scopes: entry.scopes };
    if (!this.policy.canUse(capability, context)) throw this.policy.refuse(capability, context);
  }
}
