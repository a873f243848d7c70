import { Injectable } from '@nestjs/common';
import { type McpInvocation, McpTool } from '@nest-mcp/core';
import { ElicitationInputDto, SamplingInputDto } from './conformance-fixture.dto.js';

/**
 * The conformance suite's stream scenarios (progress, log messages, sampling, elicitation with
 * SEP-1034 defaults and SEP-1330 enums), served by the layer's stream mode: the same handler code
 * in both eras (`invocation.progress/log/sample/elicit`). Names and literals are the suite's.
 */
const text = (value: string) => ({ type: 'text' as const, text: value });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@Injectable()
export class StreamFixtures {
  @McpTool({ name: 'test_tool_with_progress', description: 'Tests tool that reports progress notifications' })
  async withProgress(_input: undefined, invocation: McpInvocation) {
    await invocation.progress(0, 100);
    await pause(50);
    await invocation.progress(50, 100);
    await pause(50);
    await invocation.progress(100, 100);
    return { content: [text('Progress tool completed.')] };
  }

  @McpTool({ name: 'test_tool_with_logging', description: 'Tests tool that emits log messages during execution' })
  async withLogging(_input: undefined, invocation: McpInvocation) {
    await invocation.log('info', 'Tool execution started');
    await pause(50);
    await invocation.log('info', 'Tool processing data');
    await pause(50);
    await invocation.log('info', 'Tool execution completed');
    return { content: [text('Tool with logging executed successfully.')] };
  }

  @McpTool({ name: 'test_sampling', description: 'Tests server-initiated sampling (LLM completion request)' })
  async sampling(input: SamplingInputDto, invocation: McpInvocation) {
    const answer = await invocation.sample({ messages: [{ role: 'user', content: text(input.prompt) }], maxTokens: 100 });
    const content = answer.content as { type: string; text?: string };
    return { content: [text(`LLM response: ${content.type === 'text' ? content.text : JSON.stringify(content)}`)] };
  }

  @McpTool({ name: 'test_elicitation', description: 'Tests server-initiated elicitation (user input request)' })
  async elicitation(input: ElicitationInputDto, invocation: McpInvocation) {
    const answer = await invocation.elicit({
      message: input.message,
      requestedSchema: {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      },
    });
    return { content: [text(`User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`)] };
  }

  @McpTool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Elicitation with default values for every primitive type (SEP-1034)',
  })
  async elicitationDefaults(_input: undefined, invocation: McpInvocation) {
    const answer = await invocation.elicit({
      message: 'Please review and update the form fields with defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
        required: [],
      },
    });
    return { content: [text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`)] };
  }

  @McpTool({ name: 'test_elicitation_sep1330_enums', description: 'Elicitation with the five enum schema variants (SEP-1330)' })
  async elicitationEnums(_input: undefined, invocation: McpInvocation) {
    const answer = await invocation.elicit({
      message: 'Please select options from the enum fields',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            description: 'Select one option with titles',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            description: 'Select one option (legacy)',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            description: 'Select multiple options',
            minItems: 1,
            maxItems: 3,
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            description: 'Select multiple options with titles',
            minItems: 1,
            maxItems: 3,
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
        required: [],
      },
    });
    return { content: [text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`)] };
  }
}
