import { MCP_COMPLETION_METADATA } from './mcp-metadata.keys.js';
import type { McpCompletionOptions } from '../options/mcp-decorator.options.js';

/**
 * Marks a method as the source of `completion/complete` suggestions for one prompt argument or
 * one URI-template variable. The method receives `{ value, context }` and returns the candidates
 * (`string[]`); the layer keeps those that start with the typed value (case-insensitive), in the order given, capped at 100.
 */
export function McpCompletion(options: McpCompletionOptions): MethodDecorator {
  const target = 'prompt' in options ? options.prompt : options.resourceTemplate;
  if (!target || !options.argument) {
    throw new Error('@McpCompletion: name the prompt (or resourceTemplate) and the argument it completes');
  }
  return (_target, _propertyKey, descriptor) => {
    Reflect.defineMetadata(MCP_COMPLETION_METADATA, options, descriptor.value as object);
    return descriptor;
  };
}
