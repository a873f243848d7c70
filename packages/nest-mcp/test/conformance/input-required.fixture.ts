import { Injectable } from '@nestjs/common';
import type { PromptMessage } from '@modelcontextprotocol/server';
import {
  acceptedContent,
  inputRequired,
  inputResponse,
  McpCtx,
  type McpInvocation,
  McpPrompt,
  McpRequestState,
  McpTool,
} from '@nest-mcp/core';

/**
 * Multi round-trip fixtures of the conformance suite (SEP-2322, `input-required-result-*`):
 * names, keys and literals are the suite's. Each tool asks, then completes when the client retries
 * with `inputResponses` (and the sealed `requestState`, which the layer verifies before the method
 * runs: a tampered one never reaches it).
 */
const text = (value: string) => ({ type: 'text' as const, text: value });
const NAME_SCHEMA = { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] };
const askName = (message = 'What is your name?') => inputRequired.elicit({ message, requestedSchema: NAME_SCHEMA });
const askOk = () =>
  inputRequired.elicit({
    message: 'Please confirm',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
const askCapital = () =>
  inputRequired.createMessage({ messages: [{ role: 'user', content: text('What is the capital of France?') }], maxTokens: 100 });

@Injectable()
export class InputRequiredFixtures {
  constructor(private readonly states: McpRequestState) {}

  @McpTool({ name: 'test_input_required_result_elicitation', description: 'Asks the user for their name, then greets them' })
  elicitation(@McpCtx() ctx: McpInvocation) {
    const answer = acceptedContent<{ name?: unknown }>(ctx.inputResponses, 'user_name');
    if (typeof answer?.name !== 'string') return inputRequired({ inputRequests: { user_name: askName() } });
    return { content: [text(`Hello, ${answer.name}!`)] };
  }

  @McpTool({ name: 'test_input_required_result_sampling', description: 'Asks the client model a question' })
  sampling(@McpCtx() ctx: McpInvocation) {
    const answer = inputResponse(ctx.inputResponses, 'capital_question');
    if (answer.kind !== 'sampling') return inputRequired({ inputRequests: { capital_question: askCapital() } });
    const content = answer.result.content;
    return { content: [text(`The model answered: ${!Array.isArray(content) && content.type === 'text' ? content.text : '(non-text)'}`)] };
  }

  @McpTool({ name: 'test_input_required_result_list_roots', description: 'Asks the client for its roots' })
  listRoots(@McpCtx() ctx: McpInvocation) {
    const answer = inputResponse(ctx.inputResponses, 'client_roots');
    if (answer.kind !== 'roots') return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
    return { content: [text(`Roots: ${answer.roots.map((root) => root.uri).join(', ')}`)] };
  }

  @McpTool({ name: 'test_input_required_result_request_state', description: 'Round-trips a sealed requestState' })
  async requestState(@McpCtx() ctx: McpInvocation) {
    const confirmed = acceptedContent<{ ok?: unknown }>(ctx.inputResponses, 'confirm');
    if ((ctx.state as { step?: string } | undefined)?.step === 'confirm' && typeof confirmed?.ok === 'boolean') {
      return { content: [text(`state-ok: confirmed=${confirmed.ok}`)] };
    }
    return inputRequired({
      inputRequests: {
        confirm: askOk(),
      },
      requestState: await this.states.seal({ step: 'confirm' }, ctx),
    });
  }

  @McpTool({ name: 'test_input_required_result_multiple_inputs', description: 'Asks for elicitation, sampling and roots at once' })
  async multipleInputs(@McpCtx() ctx: McpInvocation) {
    const name = acceptedContent<{ name?: unknown }>(ctx.inputResponses, 'user_name');
    const greeting = inputResponse(ctx.inputResponses, 'greeting');
    const roots = inputResponse(ctx.inputResponses, 'client_roots');
    if (ctx.state && typeof name?.name === 'string' && greeting.kind === 'sampling' && roots.kind === 'roots') {
      return { content: [text(`Hello ${name.name}; ${roots.roots.length} root(s); greeting received.`)] };
    }
    return inputRequired({
      inputRequests: {
        user_name: askName(),
        greeting: inputRequired.createMessage({ messages: [{ role: 'user', content: text('Generate a greeting') }], maxTokens: 50 }),
        client_roots: inputRequired.listRoots(),
      },
      requestState: await this.states.seal({ step: 'all' }, ctx),
    });
  }

  @McpTool({ name: 'test_input_required_result_multi_round', description: 'Asks two questions, one per round' })
  async multiRound(@McpCtx() ctx: McpInvocation) {
    const state = ctx.state as { name?: string } | undefined;
    const step1 = acceptedContent<{ name?: unknown }>(ctx.inputResponses, 'step1');
    const step2 = acceptedContent<{ color?: unknown }>(ctx.inputResponses, 'step2');
    if (state?.name && typeof step2?.color === 'string') {
      return { content: [text(`${state.name} likes ${step2.color}.`)] };
    }
    if (state && typeof step1?.name === 'string') {
      return inputRequired({
        inputRequests: {
          step2: inputRequired.elicit({
            message: 'Step 2: What is your favorite color?',
            requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
          }),
        },
        requestState: await this.states.seal({ name: step1.name }, ctx),
      });
    }
    return inputRequired({
      inputRequests: { step1: askName('Step 1: What is your name?') },
      requestState: await this.states.seal({ round: 1 }, ctx),
    });
  }

  @McpTool({ name: 'test_input_required_result_tampered_state', description: 'Refuses a requestState it did not seal' })
  async tamperedState(@McpCtx() ctx: McpInvocation) {
    if (ctx.state && acceptedContent(ctx.inputResponses, 'confirm')) return { content: [text('state verified')] };
    return inputRequired({
      inputRequests: {
        confirm: askOk(),
      },
      requestState: await this.states.seal({ step: 'confirm' }, ctx),
    });
  }

  /** Asks only for what the client declared it can answer. */
  @McpTool({ name: 'test_input_required_result_capabilities', description: 'Asks through the capabilities the client declared' })
  capabilities(@McpCtx() ctx: McpInvocation) {
    const caps = ctx.clientCapabilities;
    const requests = {
      ...(caps.elicitation ? { user_name: askName() } : {}),
      ...(caps.sampling ? { capital_question: askCapital() } : {}),
      ...(caps.roots ? { client_roots: inputRequired.listRoots() } : {}),
    };
    const answered = Object.keys(requests).some((key) => inputResponse(ctx.inputResponses, key).kind !== 'missing');
    if (answered || !Object.keys(requests).length) return { content: [text('Done with what the client could answer.')] };
    return inputRequired({ inputRequests: requests });
  }
}

@Injectable()
export class InputRequiredPromptFixtures {
  @McpPrompt({ name: 'test_input_required_result_prompt', description: 'A prompt that asks the user for context first' })
  prompt(@McpCtx() ctx: McpInvocation) {
    const answer = acceptedContent<{ context?: unknown }>(ctx.inputResponses, 'user_context');
    if (typeof answer?.context !== 'string') {
      return inputRequired({
        inputRequests: {
          user_context: inputRequired.elicit({
            message: 'What context should the prompt use?',
            requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
          }),
        },
      });
    }
    return [{ role: 'user', content: text(`Use this context: ${answer.context}`) }] satisfies PromptMessage[];
  }
}
