import type { IncomingHttpHeaders } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type ClientCapabilities,
  type Implementation,
} from '@modelcontextprotocol/server';
import { HttpStatus } from '@nestjs/common';
import { HEADER_METHOD, HEADER_NAME, HEADER_PROTOCOL_VERSION } from './protocol.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { parseClientInfo } from './client-info.js';
import { isPlainObject, type InboundMessage } from './json-rpc-message.js';
import { McpErrorCode } from './mcp-error-codes.js';
import { decodeMcpNameHeader } from './mcp-name.header.js';
import { checkParamHeaders } from './mcp-param.headers.js';
import type { McpHeaderParameter } from '../schema/header-parameters.js';
import { McpProtocolError } from './mcp-protocol.error.js';
import { defaultHandshakeVersion, eraOf, headerValue, type ProtocolEra } from './protocol-version.js';

/** What one message says about the protocol it speaks: decided per request, remembered nowhere. */
export interface NegotiatedProtocol {
  era: ProtocolEra;
  /** The version in use, echoed in `MCP-Protocol-Version`; `initialize` replaces it with the negotiated one. */
  version: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
}

/**
 * Methods whose `Mcp-Name` header mirrors a body field; `tools/call` and the tasks methods must
 * send it (docs/contract.md §2.3; the tasks extension routes by task id: docs/tasks.md).
 */
const NAME_SOURCES: Record<string, { field: 'name' | 'uri' | 'taskId'; required: boolean }> = {
  'tools/call': { field: 'name', required: true },
  'prompts/get': { field: 'name', required: false },
  'resources/read': { field: 'uri', required: false },
  'tasks/get': { field: 'taskId', required: true },
  'tasks/update': { field: 'taskId', required: true },
  'tasks/cancel': { field: 'taskId', required: true },
};

function unsupportedVersion(requested: unknown, options: ResolvedMcpOptions): McpProtocolError {
  return new McpProtocolError(McpErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', HttpStatus.BAD_REQUEST, {
    supported: options.supportedVersions,
    requested,
  });
}

/**
 * Decides the era of a message from its body, with the headers as a check (docs/contract.md §2.2):
 * the `_meta` envelope means 2026-07-28; no envelope means the handshake era; a header that
 * names the stateless era without the envelope is refused rather than silently downgraded.
 * `headerParameters`: those of the tool a `tools/call` names, whose `Mcp-Param-*` headers are
 * checked against its arguments (required in 2026-07-28, checked when sent before it).
 */
export function negotiateProtocol(
  message: InboundMessage,
  headers: IncomingHttpHeaders,
  options: ResolvedMcpOptions,
  headerParameters: readonly McpHeaderParameter[] = [],
): NegotiatedProtocol {
  const headerVersion = headerValue(headers, HEADER_PROTOCOL_VERSION);
  const meta = isPlainObject(message.params._meta) ? message.params._meta : undefined;
  const envelopeVersion = meta?.[PROTOCOL_VERSION_META_KEY];

  if (envelopeVersion === undefined) {
    // The 2025-11-25 lifecycle: the header is required only on the requests after
    // initialization; `initialize` negotiates in its body, whatever header a client sends with it.
    if (message.method === 'initialize') {
      const version =
        headerVersion !== undefined && eraOf(headerVersion) === 'handshake' && options.supportedVersions.includes(headerVersion)
          ? headerVersion
          : defaultHandshakeVersion(options);
      if (version === undefined) throw unsupportedVersion(null, options);
      return { era: 'handshake', version, clientCapabilities: {} };
    }
    if (headerVersion !== undefined && !options.supportedVersions.includes(headerVersion)) {
      throw unsupportedVersion(headerVersion, options);
    }
    if (headerVersion !== undefined && eraOf(headerVersion) === 'stateless') {
      throw McpProtocolError.invalidParams(
        `MCP-Protocol-Version ${headerVersion} needs the per-request envelope: params._meta["${PROTOCOL_VERSION_META_KEY}"] ` +
          `and params._meta["${CLIENT_CAPABILITIES_META_KEY}"]. The server does not fall back to the handshake era.`,
        undefined,
        HttpStatus.BAD_REQUEST,
      );
    }
    const version = headerVersion ?? defaultHandshakeVersion(options);
    if (version === undefined) throw unsupportedVersion(null, options);
    checkToolParamHeaders(message, headers, headerParameters, false);
    return { era: 'handshake', version, clientCapabilities: {} };
  }

  // Envelope first, then header agreement, then support: the order the official SDK and the
  // conformance suite expect (a header that disagrees with the body is -32020 even if the body's
  // version is unknown).
  if (typeof envelopeVersion !== 'string') {
    throw McpProtocolError.invalidParams(
      `params._meta["${PROTOCOL_VERSION_META_KEY}"] must be a protocol version string`,
      undefined,
      HttpStatus.BAD_REQUEST,
    );
  }
  const isHandshakeVersion = options.supportedVersions.includes(envelopeVersion) && eraOf(envelopeVersion) === 'handshake';
  const clientCapabilities = meta?.[CLIENT_CAPABILITIES_META_KEY];
  if (!isHandshakeVersion && !isPlainObject(clientCapabilities)) {
    throw McpProtocolError.invalidParams(
      `params._meta["${CLIENT_CAPABILITIES_META_KEY}"] is required in protocol ${envelopeVersion}: send an object ({} is fine)`,
      undefined,
      HttpStatus.BAD_REQUEST,
    );
  }
  if (headerVersion !== envelopeVersion) {
    throw McpProtocolError.headerMismatch(
      headerVersion === undefined
        ? `MCP-Protocol-Version is required and must be ${envelopeVersion}, the version in params._meta`
        : `MCP-Protocol-Version is ${headerVersion} but params._meta names ${envelopeVersion}`,
    );
  }
  if (!options.supportedVersions.includes(envelopeVersion)) throw unsupportedVersion(envelopeVersion, options);
  if (isHandshakeVersion) {
    checkToolParamHeaders(message, headers, headerParameters, false);
    return { era: 'handshake', version: envelopeVersion, clientCapabilities: {} };
  }

  checkRoutingHeaders(message, headers);
  checkToolParamHeaders(message, headers, headerParameters, true);
  // Checked here, before any handler, audit row or approval page sees it (name and version only).
  const clientInfo = parseClientInfo(meta?.[CLIENT_INFO_META_KEY], `_meta["${CLIENT_INFO_META_KEY}"]`, HttpStatus.BAD_REQUEST);
  return {
    era: 'stateless',
    version: envelopeVersion,
    clientCapabilities: clientCapabilities as ClientCapabilities,
    ...(clientInfo ? { clientInfo } : {}),
  };
}

/** A `tools/call` request's `Mcp-Param-*` headers (docs/tools.md, "Header parameters"). */
function checkToolParamHeaders(
  message: InboundMessage,
  headers: IncomingHttpHeaders,
  parameters: readonly McpHeaderParameter[],
  required: boolean,
): void {
  if (message.method !== 'tools/call' || message.id === undefined || parameters.length === 0) return;
  checkParamHeaders(parameters, message.params.arguments, headers, required);
}

/** `Mcp-Method` and `Mcp-Name` repeat the body so intermediaries can route; they must agree with it. */
function checkRoutingHeaders(message: InboundMessage, headers: IncomingHttpHeaders): void {
  const isRequest = message.id !== undefined;
  const methodHeader = headerValue(headers, HEADER_METHOD);
  if (methodHeader === undefined ? isRequest : methodHeader !== message.method) {
    throw McpProtocolError.headerMismatch(
      methodHeader === undefined
        ? `Mcp-Method is required and must be "${message.method}"`
        : `Mcp-Method is "${methodHeader}" but the body's method is "${message.method}"`,
    );
  }
  const source = NAME_SOURCES[message.method];
  if (!source || !isRequest) return;
  const bodyValue = message.params[source.field];
  const nameHeader = headerValue(headers, HEADER_NAME);
  if (nameHeader === undefined) {
    if (source.required && typeof bodyValue === 'string') {
      throw McpProtocolError.headerMismatch(`Mcp-Name is required and must be "${bodyValue}" (params.${source.field})`);
    }
    return;
  }
  const decoded = decodeMcpNameHeader(nameHeader);
  if (decoded === undefined) {
    throw McpProtocolError.headerMismatch('Mcp-Name has an invalid =?base64?…?= value (canonical base64 of UTF-8 expected)');
  }
  if (typeof bodyValue === 'string' && decoded !== bodyValue) {
    throw McpProtocolError.headerMismatch(`Mcp-Name is "${decoded}" but params.${source.field} is "${bodyValue}"`);
  }
}
