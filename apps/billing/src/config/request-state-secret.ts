import { randomBytes } from 'node:crypto';
import type { CoreConfig } from './environment.js';

/**
 * The `requestState` HMAC key given to `McpModule`: MCP_STATE_SECRET, shared by every replica (a
 * multi round-trip retry may land on any of them). Unset, a single development process gets a
 * random key of its own, quietly; in production the layer gets none, makes its own and warns at
 * boot (right only for one replica). REPLICAS > 1 without it stops the boot (coreConfigFromEnv).
 */
export function requestStateSecret({ mcp, server }: Pick<CoreConfig, 'mcp' | 'server'>): string | Uint8Array | undefined {
  if (mcp.stateSecret) return mcp.stateSecret;
  return server.production ? undefined : randomBytes(32);
}
