import { Injectable, Module } from '@nestjs/common';
import type { PromptMessage } from '@modelcontextprotocol/server';
import { McpCompletion, McpErrorCode, type McpInvocation, McpPrompt, McpProtocolError, McpResource, McpTool } from '@nest-mcp/core';
import { InputRequiredFixtures, InputRequiredPromptFixtures } from './input-required.fixture.js';
import { EmbeddedResourceArgsDto, PromptArgumentsDto } from './conformance-fixture.dto.js';
import { StreamFixtures } from './stream.fixture.js';
import { TaskFixtures } from './tasks.fixture.js';
import { JsonSchemaFixtures } from './json-schema.fixture.js';
import { HeaderParameterFixtures } from './header-parameters.fixture.js';
import { SkillsFixtureModule } from './skills.fixture.js';

/**
 * The fixtures the official MCP conformance suite (@modelcontextprotocol/conformance) calls, declared
 * with our own decorators so the suite exercises the real layer. Names and literals are the suite's
 * (reference everything-server); see scripts/conformance.sh. Test-only: never imported by src/.
 *
 * The server runs in stream mode (conformance-server.ts): the tools whose scenario needs a stream
 * (progress, log messages, sampling, elicitation) are in stream.fixture.ts.
 */

// 1×1 PNG and a tiny WAV, as in the reference server.
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

const text = (value: string) => ({ type: 'text' as const, text: value });

@Injectable()
export class ConformanceTools {
  @McpTool({ name: 'test_simple_text', description: 'Tests simple text content response' })
  simpleText() {
    return { content: [text('This is a simple text response for testing.')] };
  }

  @McpTool({ name: 'test_image_content', description: 'Tests image content response' })
  image() {
    return { content: [{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }] };
  }

  @McpTool({ name: 'test_audio_content', description: 'Tests audio content response' })
  audio() {
    return { content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] };
  }

  @McpTool({ name: 'test_embedded_resource', description: 'Tests embedded resource content response' })
  embeddedResource() {
    const resource = { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' };
    return { content: [{ type: 'resource', resource }] };
  }

  @McpTool({ name: 'test_multiple_content_types', description: 'Tests response with multiple content types (text, image, resource)' })
  multipleContentTypes() {
    const resource = { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' };
    return {
      content: [
        text('Multiple content types test:'),
        { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
        { type: 'resource', resource },
      ],
    };
  }

  /** A tool-level failure is a result with `isError`, not a JSON-RPC error. */
  @McpTool({ name: 'test_error_handling', description: 'Tests error response handling' })
  errorHandling() {
    return { isError: true, content: [text('This tool intentionally returns an error for testing')] };
  }

  /**
   * 2026-07-28: a client that did not declare `sampling` gets -32021 with HTTP 400 naming the
   * capability. (`_input: undefined` keeps the tool parameterless; the invocation is argument 2.)
   * The handshake era has no per-request capabilities, so there it just answers.
   */
  @McpTool({ name: 'test_missing_capability', description: 'Requires the sampling client capability (2026-07-28)' })
  missingCapability(_input: undefined, invocation: McpInvocation) {
    if (invocation.era === 'stateless' && !invocation.clientCapabilities.sampling) {
      throw new McpProtocolError(McpErrorCode.MissingRequiredClientCapability, 'Missing required client capability: sampling', 400, {
        requiredCapabilities: { sampling: {} },
      });
    }
    return { content: [text('The client declared sampling.')] };
  }

  /** The suite checks that no server→client request appears on the answer: ours is plain JSON. */
  @McpTool({ name: 'test_streaming_elicitation', description: 'Answers without sending requests on the response stream' })
  streamingElicitation() {
    return { content: [text('No elicitation sent: this tool answers without asking the client.')] };
  }

  /** The suite checks no log notification is sent when the request set no log level. */
  @McpTool({ name: 'test_logging_tool', description: 'Logs nothing unless the request sets a log level' })
  loggingTool() {
    return { content: [text('Logging tool ran without emitting log notifications.')] };
  }
}

@Injectable()
export class ConformanceResources {
  @McpResource({ uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain', description: 'Static text resource' })
  staticText() {
    return 'This is the content of the static text resource.';
  }

  /** Bytes become a base64 `blob` in the layer. */
  @McpResource({ uri: 'test://static-binary', name: 'static-binary', mimeType: 'image/png', description: 'Static binary resource' })
  staticBinary() {
    return new Uint8Array(Buffer.from(PNG_1X1, 'base64'));
  }

  /** An object is served as JSON text by the layer; the suite checks the text contains the id. */
  @McpResource({
    uri: 'test://template/{id}/data',
    name: 'template-data',
    mimeType: 'application/json',
    description: 'Resource template with an id parameter',
  })
  templateData(variables: { id: string }) {
    return { id: variables.id, templateTest: true, data: `Data for ID: ${variables.id}` };
  }

  /** Read by the 2025-era subscribe scenarios (we do not offer subscriptions). */
  @McpResource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    mimeType: 'text/plain',
    description: 'A resource clients may watch',
  })
  watched() {
    return 'Watched resource content.';
  }
}

@Injectable()
export class ConformancePrompts {
  /** A string is one user text message. */
  @McpPrompt({ name: 'test_simple_prompt', description: 'A simple prompt without arguments' })
  simple() {
    return 'This is a simple prompt for testing.';
  }

  @McpPrompt({ name: 'test_prompt_with_arguments', description: 'A prompt with required arguments' })
  withArguments(args: PromptArgumentsDto) {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }

  @McpPrompt({ name: 'test_prompt_with_embedded_resource', description: 'A prompt that includes an embedded resource' })
  withEmbeddedResource(args: EmbeddedResourceArgsDto): PromptMessage[] {
    return [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: text('Please process the embedded resource above.') },
    ];
  }

  @McpPrompt({ name: 'test_prompt_with_image', description: 'A prompt that includes image content' })
  withImage(): PromptMessage[] {
    return [
      { role: 'user', content: { type: 'image', data: PNG_1X1, mimeType: 'image/png' } },
      { role: 'user', content: text('Please analyze the image above.') },
    ];
  }

  /**
   * The suite asks with value "test". The layer keeps candidates starting with the typed value, so
   * the reference's paris/park/party alone would answer an empty list; the test values match.
   */
  @McpCompletion({ prompt: 'test_prompt_with_arguments', argument: 'arg1' })
  completeArg1() {
    return ['paris', 'park', 'party', 'testValue1', 'testValue2'];
  }
}

@Module({
  imports: [SkillsFixtureModule],
  providers: [
    ConformanceTools,
    HeaderParameterFixtures,
    StreamFixtures,
    ConformanceResources,
    ConformancePrompts,
    InputRequiredFixtures,
    InputRequiredPromptFixtures,
    TaskFixtures,
    JsonSchemaFixtures,
  ],
})
export class ConformanceFixtureModule {}
