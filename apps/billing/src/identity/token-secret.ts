import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'mcp_pat_';

/** A new personal access token: shown once; only its hash is stored. */
export function generateTokenSecret(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/**
 * SHA-256 of the token. Tokens are 256 random bits, so a fast hash is enough (no dictionary to
 * attack) and lets the lookup use a unique index instead of comparing secrets one by one.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function looksLikePersonalToken(token: string): boolean {
  return token.startsWith(PREFIX);
}

/** What a list may show of a token: its prefix, never the secret. */
export function displayPrefix(token: string): string {
  return token.slice(0, PREFIX.length + 6);
}
