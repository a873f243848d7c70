import type { McpSurface } from '../options/mcp-auth.options.js';
import type { McpPrincipal } from '../principal/mcp-principal.js';

/** A credential's check: the caller it stands for, or why it is refused (the 401's message). */
export type McpTokenCheck = { ok: true; principal: McpPrincipal } | { ok: false; reason: string };

/**
 * Credentials of the application's own (personal access tokens, API keys), checked beside the JWTs
 * of the trusted issuers: the first verifier that `handles()` a token checks it, and a token none
 * handles is a JWT. Given as `tokenVerifiers` of `McpAuthModule`.
 */
export interface McpTokenVerifier {
  /** Whether this token is one of this verifier's (a prefix: `mcp_pat_…`); it never reads a store. */
  handles(token: string): boolean;
  /** The caller, with the surfaces the credential is issued for, or the reason it is refused. */
  verify(token: string): Promise<McpTokenCheck>;
  /**
   * The refusal of a credential used on a surface it was not issued for. Default: 403 `wrong_channel`
   * naming the surfaces it was issued for.
   */
  refuseSurface?(principal: McpPrincipal, surface: McpSurface): Error;
}

/** The injection token of the given verifiers, in their order. */
export const MCP_AUTH_TOKEN_VERIFIERS = Symbol('MCP_AUTH_TOKEN_VERIFIERS');
