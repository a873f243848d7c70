/** Injection token of the resolved module options. */
export const MCP_OPTIONS = Symbol('MCP_OPTIONS');

/** The protocol revisions served when `supportedVersions` is not given, newest first. */
export const DEFAULT_SUPPORTED_VERSIONS: readonly string[] = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];
