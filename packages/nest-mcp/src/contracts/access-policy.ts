import type { Request } from 'express';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';

/** What a policy decides on: any registered tool, resource, template or prompt. */
export interface McpCapability {
  kind: 'tool' | 'resource' | 'prompt';
  name: string;
  scopes: string[];
}

/**
 * Decides what a caller may see and run; lists and calls ask the same policy, so a list never
 * shows what a call would refuse. Given as the `accessPolicy` option of `McpModule.forRoot()`;
 * the default allows everything.
 */
export interface McpAccessPolicy {
  canUse(capability: McpCapability, context: McpRequestContext): boolean;
  /**
   * Thrown when a call is refused; the filter turns it into HTTP. It may be awaited: a policy that
   * asks a shared store which refusal to give (a step-up challenge, or a plain refusal after a
   * step-up that was not granted) answers a promise.
   */
  refuse(capability: McpCapability, context: McpRequestContext): Error | Promise<Error>;
  /**
   * Every scope that exists. When given, the layer checks at boot that each scope named by
   * `@McpTool`/`@McpResource`/`@McpPrompt` `scopes` and `@RequiredScopes()` is one of them, so a
   * typo fails the boot instead of hiding a tool from everyone.
   */
  declaredScopes?(): readonly string[];
  /**
   * Stream mode: whether the credentials of a long-lived request (an open `GET` stream) still
   * hold, checked again before each message the stream carries and at least every
   * `streams.revalidateMs` (one check per caller). False or a throw closes that caller's streams
   * and ends their sessions: a revoked token stops receiving at once. Refresh here whatever the
   * application cached on the request (its principal, its workspace). It runs inside the
   * request's async context. Without it, an open stream keeps the credentials it opened with.
   */
  revalidate?(request: Request): Promise<boolean>;
}

export const MCP_ACCESS_POLICY = Symbol('MCP_ACCESS_POLICY');

/** The default policy: no restriction (an application without scopes, or one that checks in guards). */
export class AllowAllAccessPolicy implements McpAccessPolicy {
  canUse(): boolean {
    return true;
  }
  refuse(capability: McpCapability): Error {
    // Never reached: canUse() allows everything.
    return new Error(`${capability.kind} ${capability.name} refused`);
  }
}
