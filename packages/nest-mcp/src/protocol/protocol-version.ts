import type { IncomingHttpHeaders } from 'node:http';
import { HANDSHAKE_DEFAULT_HEADER_VERSION, HEADER_PROTOCOL_VERSION, STATELESS_VERSIONS } from './protocol.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';

export type ProtocolEra = 'stateless' | 'handshake';

export function eraOf(version: string): ProtocolEra {
  return STATELESS_VERSIONS.includes(version) ? 'stateless' : 'handshake';
}

/** A header value without the optional whitespace HTTP allows around it; first value if repeated. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === undefined ? undefined : value.trim();
}

/** Handshake-era versions this endpoint speaks, in the configured order. */
export function handshakeVersions(options: ResolvedMcpOptions): string[] {
  return options.supportedVersions.filter((v) => eraOf(v) === 'handshake');
}

/**
 * What `initialize` answers when the client asks for a version this server does not speak in
 * the handshake era (2026-07-28, an unknown or a disabled one): the newest handshake version
 * enabled (docs/contract.md §2.4; 2025-11-25 lifecycle: "respond with another protocol version it supports",
 * which "SHOULD be the latest"). Versions are ISO dates, so the newest is the greatest string.
 */
export function newestHandshakeVersion(options: ResolvedMcpOptions): string | undefined {
  return handshakeVersions(options).reduce<string | undefined>((newest, v) => (newest === undefined || v > newest ? v : newest), undefined);
}

/**
 * The version a 2025-era request without `MCP-Protocol-Version` is taken to speak: 2025-03-26
 * (what the 2025-06-18 transport spec says to assume), or the oldest handshake version enabled.
 */
export function defaultHandshakeVersion(options: ResolvedMcpOptions): string | undefined {
  const versions = handshakeVersions(options);
  return versions.includes(HANDSHAKE_DEFAULT_HEADER_VERSION) ? HANDSHAKE_DEFAULT_HEADER_VERSION : versions.at(-1);
}

/** The `MCP-Protocol-Version` of an answer given before the era is known (parse errors, 413, 403). */
export function responseVersion(headers: IncomingHttpHeaders, options: ResolvedMcpOptions): string {
  const requested = headerValue(headers, HEADER_PROTOCOL_VERSION);
  if (requested && options.supportedVersions.includes(requested)) return requested;
  return defaultHandshakeVersion(options) ?? options.supportedVersions[0];
}
