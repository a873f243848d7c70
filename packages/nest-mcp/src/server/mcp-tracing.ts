import {
  context,
  createContextKey,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanContext,
  type TextMapGetter,
} from '@opentelemetry/api';
import { HttpException } from '@nestjs/common';
import type { Request } from 'express';
import { isPlainObject } from '../protocol/json-rpc-message.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { mcpTargetOf, type McpRequestMessage } from '../transport/mcp-request-message.js';

/**
 * OpenTelemetry instrumentation of the MCP endpoint, with `@opentelemetry/api` only: without an
 * SDK installed by the application every call here is a no-op. One SERVER span per MCP request,
 * following the OpenTelemetry semantic conventions for MCP (`gen_ai` / `mcp.*`, development
 * status): name `{mcp.method.name} {target}` (target = tool or prompt name), parent = the W3C
 * trace context in `params._meta` (`traceparent`, `tracestate`), else the active context (an HTTP
 * server span, when the app instruments HTTP), else the HTTP `traceparent` header.
 */
const tracer = trace.getTracer('nest-mcp');

/** Attributes this layer adds beyond the semantic conventions. */
export const McpSpanAttribute = {
  /** `ok`, `isError` (a tool result with `isError: true`) or `error` (a JSON-RPC error answer). */
  Outcome: 'nestmcp.outcome',
} as const;

const REQUEST_SPAN = createContextKey('nest-mcp request span');
const SPAN_OF_REQUEST = Symbol('nest-mcp:span');
const MAX_ATTRIBUTE_LENGTH = 256;

/** Reads `traceparent` / `tracestate` from `params._meta` (string values only: it is client input). */
const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = Object.hasOwn(carrier, key) ? carrier[key] : undefined;
    return typeof value === 'string' ? value : undefined;
  },
};

/** What a traced request reports when it completes without throwing. */
export type McpRequestOutcome = Record<string, unknown> | undefined;

/**
 * Runs one MCP request inside its span. `serve` resolves with the JSON-RPC result (undefined for
 * a notification) or throws what the exception filter turns into a JSON-RPC error.
 */
export function traceMcpRequest(req: Request, read: McpRequestMessage, serve: () => Promise<McpRequestOutcome>): Promise<void> {
  const message = read.message;
  const meta = message && isPlainObject(message.params._meta) ? message.params._meta : undefined;
  const method = message ? clip(message.method) : undefined;
  // The tool, prompt or resource URI; span names carry only tool and prompt names (the conventions').
  const target = stringAttribute(mcpTargetOf(message));
  const named = method === 'resources/read' ? undefined : target;

  const span = tracer.startSpan(
    method ? (named ? `${method} ${named}` : method) : 'mcp',
    { kind: SpanKind.SERVER },
    parentContext(req, meta),
  );
  const recording = span.isRecording();
  // No SDK (or not sampled) and no trace to continue: the span records nothing and has no ids to
  // hand on, so the request runs without entering a context of its own.
  if (!recording && !isSpanContextValid(span.spanContext())) return serve().then(ignoreOutcome);
  if (recording) span.setAttributes(requestAttributes(req, read, meta, method, target));
  (req as unknown as Record<symbol, Span>)[SPAN_OF_REQUEST] = span;

  const active = trace.setSpan(context.active(), span).setValue(REQUEST_SPAN, span);
  return context.with(active, async () => {
    try {
      const result = await serve();
      if (result?.isError === true) {
        span.setAttributes({ [McpSpanAttribute.Outcome]: 'isError', 'error.type': 'tool_error' });
      } else {
        span.setAttribute(McpSpanAttribute.Outcome, 'ok');
      }
    } catch (error) {
      recordFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

const ignoreOutcome = (): void => undefined;

/**
 * Adds attributes to the span of the MCP request being served (e.g. the application's tenant or
 * workspace, which this layer does not know). A no-op outside a traced request or without an SDK.
 */
export function setMcpSpanAttributes(attributes: Attributes): void {
  const span = context.active().getValue(REQUEST_SPAN) as Span | undefined;
  if (span?.isRecording()) span.setAttributes(attributes);
}

/**
 * The trace and span of the MCP request carried by `req`, once it is being served (also after
 * its span ended): lets the application's logs name the trace of a request.
 */
export function mcpSpanContextOf(req: Request): SpanContext | undefined {
  const span = (req as unknown as Record<symbol, Span | undefined>)[SPAN_OF_REQUEST];
  const spanContext = span?.spanContext();
  return spanContext && isSpanContextValid(spanContext) ? spanContext : undefined;
}

function parentContext(req: Request, meta: Record<string, unknown> | undefined): Context {
  const active = context.active();
  if (meta) {
    const fromMeta = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, meta, metaGetter));
    if (fromMeta && isSpanContextValid(fromMeta)) return propagation.extract(active, meta, metaGetter);
  }
  if (trace.getSpanContext(active)) return active;
  return propagation.extract(active, req.headers);
}

function requestAttributes(
  req: Request,
  read: McpRequestMessage,
  meta: Record<string, unknown> | undefined,
  method: string | undefined,
  target: string | undefined,
): Attributes {
  const version = meta?.['io.modelcontextprotocol/protocolVersion'] ?? req.headers['mcp-protocol-version'];
  return {
    'mcp.method.name': method,
    'jsonrpc.request.id': read.id === null ? undefined : clip(String(read.id)),
    // Only a refused envelope can have another version: say which one it claimed.
    'jsonrpc.protocol.version': read.fault && isPlainObject(req.body) ? stringAttribute(req.body.jsonrpc) : undefined,
    'mcp.protocol.version': stringAttribute(version),
    'gen_ai.operation.name': method === 'tools/call' ? 'execute_tool' : undefined,
    'gen_ai.tool.name': method === 'tools/call' ? target : undefined,
    'gen_ai.prompt.name': method === 'prompts/get' ? target : undefined,
    'mcp.resource.uri': method === 'resources/read' ? target : undefined,
    'network.transport': 'tcp',
    'network.protocol.name': 'http',
    'network.protocol.version': req.httpVersion,
    'client.address': req.socket.remoteAddress,
    'client.port': req.socket.remotePort,
  };
}

/**
 * A thrown fault, as the exception filter will answer it: `rpc.response.status_code` is always
 * set; the span status is ERROR (with `error.type`) only for server-side codes, as the MCP
 * conventions say (-32700, -32600, -32601, -32602 are the caller's mistakes).
 */
function recordFailure(span: Span, error: unknown): void {
  const code =
    error instanceof McpProtocolError
      ? error.code
      : error instanceof HttpException && error.getStatus() < 500
        ? McpErrorCode.InvalidRequest
        : McpErrorCode.InternalError;
  span.setAttributes({ [McpSpanAttribute.Outcome]: 'error', 'rpc.response.status_code': String(code), 'error.type': String(code) });
  if (error instanceof HttpException) span.setAttribute('http.response.status_code', error.getStatus());
  if (error instanceof McpProtocolError) span.setAttribute('http.response.status_code', error.httpStatus);
  const callerFault: number[] = [
    McpErrorCode.ParseError,
    McpErrorCode.InvalidRequest,
    McpErrorCode.MethodNotFound,
    McpErrorCode.InvalidParams,
  ];
  if (!callerFault.includes(code)) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof McpProtocolError ? error.message : 'Internal error' });
  }
}

function stringAttribute(value: unknown): string | undefined {
  return typeof value === 'string' ? clip(value) : undefined;
}

/** Client input becomes attributes and span names: keep them bounded. */
function clip(value: string): string {
  return value.length > MAX_ATTRIBUTE_LENGTH ? `${value.slice(0, MAX_ATTRIBUTE_LENGTH)}…` : value;
}
