import type { CallToolResult } from '@modelcontextprotocol/server';
import type { JsonSchema } from '../schema/json-schema.types.js';
import { toJsonValue } from './json-value.js';

export type ToolStatus = 'success' | 'failed' | 'needs_more_info' | 'pending_confirmation' | 'queued';
export type ToolSafety = 'read_only' | 'mutation' | 'external_send' | 'destructive';

export interface ToolError {
  code: string;
  message: string;
  field?: string;
  retryable: boolean;
  /** Fields an app's contract adds (McpModuleOptions.toolErrorFields), e.g. a translated message. */
  [extra: string]: unknown;
}

/** The fields every entry of `errors` may carry, whatever the app: `toolErrorFields` adds to them. */
export const TOOL_ERROR_FIELDS = ['code', 'message', 'field', 'retryable'] as const;

export interface ToolApproval {
  id: string;
  /** The page where a person chooses Continue or Cancel (pending approvals). */
  url?: string;
  expires_at?: string;
}

/** The JSON a tool result carries (docs/contract.md §3.3): one shape for every tool, success or not. */
export interface ToolEnvelope {
  ok: boolean;
  status: ToolStatus;
  data?: unknown;
  errors: ToolError[];
  nextQuestion?: string;
  /** The approval a destructive call waits for (or waited for): where a person decides. */
  approval?: ToolApproval;
  toolName: string;
  safety: ToolSafety;
  durationMs: number;
}

/** What a tool may do, from its annotations: the envelope's `safety`. */
export function safetyOf(annotations: { destructiveHint?: boolean; readOnlyHint?: boolean; openWorldHint?: boolean }): ToolSafety {
  if (annotations.destructiveHint) return 'destructive';
  if (annotations.readOnlyHint) return 'read_only';
  return annotations.openWorldHint ? 'external_send' : 'mutation';
}

/**
 * The tool result that carries `envelope`: its JSON as the text block, and the same JSON data as
 * `structuredContent` when the tool declares an output schema (docs/contract.md §3.3). Its values
 * are written by `toJsonValue` (a `BigInt` as a string, a `Map` as an object…), so both say the
 * same; one JSON cannot carry (a circular reference) throws `JsonConversionError`.
 */
export function envelopeResult(envelope: ToolEnvelope, options: { structured: boolean; isError: boolean }): CallToolResult {
  const json = toJsonValue(envelope) as ToolEnvelope;
  return {
    content: [{ type: 'text', text: JSON.stringify(json) }],
    ...(options.structured ? { structuredContent: json } : {}),
    ...(options.isError ? { isError: true } : {}),
  };
}

/**
 * The `outputSchema` of a tool whose `data` is described by an output DTO; `errorFields` are the
 * app's own fields of an error entry (McpModuleOptions.toolErrorFields).
 */
export function envelopeSchema(dataSchema: JsonSchema, errorFields: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    type: 'object',
    properties: {
      ok: { type: 'boolean', description: 'True when the tool did what was asked.' },
      status: { type: 'string', enum: ['success', 'failed', 'needs_more_info', 'pending_confirmation', 'queued'] },
      data: { ...dataSchema, description: dataSchema.description ?? 'The result; absent when ok is false.' },
      errors: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            code: { type: 'string' },
            message: { type: 'string' },
            field: { type: 'string' },
            retryable: { type: 'boolean' },
            ...errorFields,
          },
          required: ['code', 'message', 'retryable'],
        },
      },
      nextQuestion: { type: 'string', description: 'What to ask or tell the user when status is needs_more_info or pending_confirmation.' },
      approval: {
        type: 'object',
        description: 'When status is pending_confirmation: the approval a person must give first, and the page where they give it.',
        properties: { id: { type: 'string' }, url: { type: 'string' }, expires_at: { type: 'string' } },
        required: ['id'],
      },
      toolName: { type: 'string' },
      safety: { type: 'string', enum: ['read_only', 'mutation', 'external_send', 'destructive'] },
      durationMs: { type: 'number' },
    },
    required: ['ok', 'status', 'errors', 'toolName', 'safety', 'durationMs'],
  };
}
