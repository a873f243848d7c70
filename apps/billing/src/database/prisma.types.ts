import type { Prisma } from '../generated/prisma/client.js';

/** The client inside `$transaction(async (tx) => …)`. */
export type TransactionClient = Prisma.TransactionClient;
