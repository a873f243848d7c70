import type { InputRequest, InputRequiredResult } from '@modelcontextprotocol/server';
import { HttpStatus } from '@nestjs/common';
import type { McpInvocation } from '../invocation/mcp-invocation.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { isPlainObject } from '../protocol/json-rpc-message.js';
import { inputRequired } from './input-required.js';
import type { McpRequestState } from './request-state.js';

/** What a multi round-trip state sealed by `invocation.elicit/sample/listRoots` carries: the answers so far, and the key of the question asked. */
interface AnswersState {
  answers: Record<string, unknown>;
  asked?: string;
}

/**
 * Thrown by `invocation.elicit/sample/listRoots` in the 2026-07-28 era when the answer is not
 * there yet: the layer turns it into an `input_required` result (SEP-2322) and the client retries
 * with the answer; the handler then runs again and the same question returns it.
 */
export class InputRequiredSignal extends Error {
  constructor(
    readonly key: string,
    readonly request: InputRequest,
    readonly answers: Record<string, unknown>,
  ) {
    super(`Input required: ${request.method}`);
  }
}

const SHORT: Record<string, string> = { 'elicitation/create': 'elicit', 'sampling/createMessage': 'sample', 'roots/list': 'roots' };

/**
 * Questions a handler puts to the client, one API for both eras. Keys are `<kind>-<n>` by order
 * of asking, so a handler that asks the same questions in the same order on every run finds each
 * answer under its key: answers of earlier rounds travel in the sealed `requestState`, this round's
 * in `inputResponses`.
 */
export class ClientQuestions {
  private asked = 0;
  private readonly answered: Record<string, unknown> = {};

  constructor(private readonly invocation: McpInvocation) {}

  async ask(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const invocation = this.invocation;
    if (invocation.era === 'stateless') return this.inRounds(method, params);
    if (!invocation.stream?.hasSession) {
      throw McpProtocolError.invalidRequest(
        `This call needs to ask the client (${method}), which in protocol ${invocation.protocolVersion} needs the server's stream mode ` +
          'and a session. Nothing was done.',
        HttpStatus.OK,
      );
    }
    const capability = capabilityOf(method);
    if (!invocation.clientCapabilities[capability]) {
      throw new McpProtocolError(
        McpErrorCode.MissingRequiredClientCapability,
        `This call needs the client capability "${capability}", which this client did not declare in initialize. Nothing was done.`,
        HttpStatus.OK,
        { requiredCapabilities: { [capability]: {} } },
      );
    }
    return invocation.stream.ask(method, params);
  }

  private inRounds(method: string, params: Record<string, unknown>): Record<string, unknown> {
    const key = `${SHORT[method] ?? 'input'}-${this.asked++}`;
    const earlier = isAnswersState(this.invocation.state) ? this.invocation.state.answers : {};
    const answer = Object.hasOwn(earlier, key) ? earlier[key] : this.invocation.inputResponses?.[key];
    if (isPlainObject(answer)) {
      this.answered[key] = answer;
      return answer;
    }
    throw new InputRequiredSignal(key, { method, params } as InputRequest, { ...this.answered });
  }
}

/** The `input_required` result for a question not answered yet, its state carrying the earlier answers. */
export async function inputRequiredFor(
  signal: InputRequiredSignal,
  invocation: McpInvocation,
  states: McpRequestState,
): Promise<InputRequiredResult> {
  return inputRequired({
    inputRequests: { [signal.key]: signal.request },
    requestState: await states.seal({ answers: signal.answers, asked: signal.key } satisfies AnswersState, invocation),
  });
}

/**
 * Every answer the client gave in this call's rounds so far to a question the handler asked
 * (earlier rounds' from the sealed state, this round's to the question the state names): what a
 * task created on this round carries into its runs, so the handler finds them under the same keys.
 * Anything else a client put in `inputResponses` answers nothing and is not kept.
 */
export function answersSoFar(invocation: Pick<McpInvocation, 'state' | 'inputResponses'>): Record<string, unknown> {
  if (!isAnswersState(invocation.state)) return {};
  const { answers, asked } = invocation.state;
  const latest = asked !== undefined && invocation.inputResponses && Object.hasOwn(invocation.inputResponses, asked);
  return { ...answers, ...(latest ? { [asked]: invocation.inputResponses![asked] } : {}) };
}

function isAnswersState(state: unknown): state is AnswersState {
  return isPlainObject(state) && isPlainObject(state.answers);
}

function capabilityOf(method: string): 'elicitation' | 'sampling' | 'roots' {
  return method === 'sampling/createMessage' ? 'sampling' : method === 'roots/list' ? 'roots' : 'elicitation';
}
