import { isInputRequiredResult, type ClientCapabilities, type InputRequiredResult } from '@modelcontextprotocol/server';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import type { McpRequestContext } from '../invocation/mcp-invocation.js';

export { acceptedContent, inputRequired, inputResponse, isInputRequiredResult } from '@modelcontextprotocol/server';

/** Whether the client can answer a form-mode elicitation (an empty `elicitation: {}` means form). */
export function canElicitForm(capabilities: ClientCapabilities): boolean {
  const elicitation = capabilities.elicitation as Record<string, unknown> | undefined;
  if (!elicitation || typeof elicitation !== 'object') return false;
  return 'form' in elicitation || !('url' in elicitation);
}

/**
 * Checks an `input_required` result a handler produced before it goes out: only the 2026 era
 * has multi round-trip requests, and each embedded request needs the capability the client
 * declared for it (SEP-2322). A handler should have asked only for what the client supports;
 * if it did not, the client gets `-32021` naming what is missing rather than a request it cannot
 * answer.
 */
export function assertAnswerable(result: InputRequiredResult, context: McpRequestContext): InputRequiredResult {
  if (context.era !== 'stateless') {
    throw McpProtocolError.invalidRequest(
      'This call needs input from the user (a multi round-trip request), which needs protocol revision 2026-07-28. ' + 'Nothing was done.',
      200,
    );
  }
  const missing: ClientCapabilities = {};
  for (const request of Object.values(result.inputRequests ?? {})) {
    const { method, params } = request as { method: string; params?: { mode?: string } };
    if (method === 'elicitation/create') {
      const url = params?.mode === 'url';
      const declared = context.clientCapabilities.elicitation as Record<string, unknown> | undefined;
      if (url ? !declared || !('url' in declared) : !canElicitForm(context.clientCapabilities)) {
        missing.elicitation = url ? { url: {} } : { form: {} };
      }
    } else if (method === 'sampling/createMessage' && !context.clientCapabilities.sampling) {
      missing.sampling = {};
    } else if (method === 'roots/list' && !context.clientCapabilities.roots) {
      missing.roots = {};
    }
  }
  if (Object.keys(missing).length) {
    throw new McpProtocolError(
      McpErrorCode.MissingRequiredClientCapability,
      `This call needs client capabilities that were not declared: ${Object.keys(missing).join(', ')}`,
      200,
      { requiredCapabilities: missing },
    );
  }
  return result;
}

export function asInputRequired(output: unknown): InputRequiredResult | undefined {
  return isInputRequiredResult(output) ? output : undefined;
}
