import { AsyncLocalStorage } from 'node:async_hooks';
/**
 * One open transaction on one pooled connection. While it is open, every query of the work it
 * wraps — Prisma's model calls, `$queryRaw`, the layer's own SQL — runs on that connection
 * (`TransactionRoutingPool`), found through `AsyncLocalStorage` rather than passed down by hand.
 */
export class SqlTransaction {
    client;
    limitMs;
    /** Ended (committed or rolled back): queries of this context go to the pool again. */
    ended = false;
    /** Held past its time limit and rolled back: later queries of the work fail instead of leaking out of it. */
    expired = false;
    /** Work to run once the transaction has ended (see `PrismaService.afterTransaction`). */
    afterEnd = [];
    /** Announcements to make only once the transaction has committed (see `PrismaService.afterCommit`). */
    onCommit = [];
    /** Writes that wait for the commit, sent together just before it (see `PrismaService.sqlBeforeCommit`). */
    beforeCommit = [];
    savepoints = 0;
    constructor(client, 
    /** How long it may stay open before it is rolled back. */
    limitMs) {
        this.client = client;
        this.limitMs = limitMs;
    }
    nextSavepoint() {
        return `sp_${++this.savepoints}`;
    }
}
const storage = new AsyncLocalStorage();
export const SqlTransactionScope = {
    /** The transaction the current code runs in, if one is open. */
    current() {
        const tx = storage.getStore();
        return tx && !tx.ended ? tx : undefined;
    },
    run(tx, work) {
        return storage.run(tx, work);
    },
    /**
     * Runs `work` outside any transaction of the calling context: for work that belongs to no one
     * request (a batch flushed on behalf of many callers) and must never join one's transaction.
     */
    outside(work) {
        return storage.exit(work);
    },
};
/** The error of a query made in a transaction that outlived its time limit (and was rolled back). */
export class TransactionExpiredError extends Error {
    constructor(limitMs) {
        super(`Transaction rolled back: it was held open longer than ${limitMs} ms`);
    }
}
//# sourceMappingURL=sql-transaction.js.map