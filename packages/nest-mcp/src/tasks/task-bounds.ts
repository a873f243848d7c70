import type { ClientCapabilities, Implementation } from '@modelcontextprotocol/server';
import { isPlainObject } from '../protocol/json-rpc-message.js';
import { ToolReply } from '../tool-results/tool-reply.js';
import type { McpTask } from '../contracts/task-store.js';

/** Extension identifiers a task keeps of the client's (a run asks only whether one is declared). */
const MAX_EXTENSIONS = 16;
const MAX_NAME_CHARS = 200;

/**
 * What a task keeps of the client: only what its runs read (the protocol version, whether the
 * client can be asked something, and which extensions it declared), never the client's own
 * objects, which it may fill with anything (a capability carrying a megabyte of `_meta` would
 * otherwise be stored with every task it creates).
 */
export function taskClient(protocolVersion: string, capabilities: ClientCapabilities, info?: Implementation): McpTask['client'] {
  return {
    protocolVersion,
    capabilities: capabilityFlags(capabilities),
    ...(info ? { info: { name: cut(info.name), version: cut(info.version), ...(info.title ? { title: cut(info.title) } : {}) } } : {}),
  };
}

function capabilityFlags(capabilities: ClientCapabilities): ClientCapabilities {
  const flags: Record<string, unknown> = {};
  const elicitation = capabilities.elicitation;
  if (isPlainObject(elicitation)) {
    // An empty object means form elicitation (the 2025-06-18 shape); `url` must be declared as such.
    flags.elicitation = Object.fromEntries(['form', 'url'].filter((mode) => mode in elicitation).map((mode) => [mode, {}]));
  }
  if (isPlainObject(capabilities.sampling)) flags.sampling = {};
  if (isPlainObject(capabilities.roots)) flags.roots = {};
  const extensions = (capabilities as { extensions?: unknown }).extensions;
  if (isPlainObject(extensions)) {
    const declared = Object.keys(extensions).filter((id) => id.length <= MAX_NAME_CHARS && extensions[id] !== undefined);
    flags.extensions = Object.fromEntries(declared.slice(0, MAX_EXTENSIONS).map((id) => [id, {}]));
  }
  return flags;
}

function cut(text: unknown): string {
  return String(text ?? '').slice(0, MAX_NAME_CHARS);
}

/**
 * The part of a call a task stores that the client sized (its arguments, its answers), when one is
 * over `maxBytes` of JSON: what the call answers instead, nothing stored.
 */
export function oversizedTask(tool: string, parts: Record<'arguments' | 'answers', unknown>, maxBytes: number): ToolReply | undefined {
  for (const [part, value] of Object.entries(parts)) {
    const bytes = value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value));
    if (bytes <= maxBytes) continue;
    return ToolReply.failed([
      {
        code: 'task_too_large',
        message:
          `The ${part} of this ${tool} call take ${bytes} bytes as JSON, more than the ${maxBytes} a task may store: ` +
          'nothing was started. Send less (a shorter text, fewer items per call, or a reference to data stored elsewhere).',
        retryable: false,
      },
    ]);
  }
  return undefined;
}
