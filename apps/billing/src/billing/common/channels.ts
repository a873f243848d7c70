import type { Channel } from '../../generated/prisma/client.js';

/** The channels a row can be created or updated through, as the `*_via` columns of every billing model hold them. */
export const CHANNELS = ['mcp', 'api', 'panel', 'system'] as const satisfies readonly Channel[];
