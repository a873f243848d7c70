import { Prisma } from '../generated/prisma/client.js';
let sink;
/** Set by ResourceUpdatesPublisher while the application runs; no sink, no work. */
export function setResourceChangeSink(next) {
    sink = next;
}
const idOf = (value) => (typeof value === 'string' ? value : undefined);
const whereIdOf = (args) => idOf(args?.where?.id);
/** Wraps one write: runs it, then hands the sink what it changed (reads never pass here). */
function watch(changed) {
    return async ({ args, query }) => {
        const result = await query(args);
        if (sink) {
            const { invoiceIds = [], customerIds = [], invoicesWithoutCustomer = [] } = changed(result, args);
            if (invoiceIds.length || customerIds.length)
                sink({ invoiceIds, customerIds, invoicesWithoutCustomer });
        }
        return result;
    };
}
const invoiceWrite = watch((row, args) => {
    const id = idOf(row?.id) ?? whereIdOf(args);
    const customerId = idOf(row?.customerId);
    if (!id)
        return {};
    return customerId ? { invoiceIds: [id], customerIds: [customerId] } : { invoiceIds: [id], invoicesWithoutCustomer: [id] };
});
const invoiceUpdateMany = watch((_result, args) => {
    const id = whereIdOf(args);
    return id ? { invoiceIds: [id], invoicesWithoutCustomer: [id] } : {};
});
const customerWrite = watch((row, args) => {
    const id = idOf(row?.id) ?? whereIdOf(args);
    return id ? { customerIds: [id] } : {};
});
const childOfInvoice = watch((row) => {
    const invoiceId = idOf(row?.invoiceId);
    return invoiceId ? { invoiceIds: [invoiceId], invoicesWithoutCustomer: [invoiceId] } : {};
});
/**
 * Sees every write of the rows behind the billing resources, whatever the channel (REST, MCP and
 * the admin pages all write through this client), and tells the sink which resources changed.
 * Only the ids: the sink publishes once the request's transaction commits, not here (the write
 * may still roll back). A customer's resource carries its billing summary, so an invoice change
 * is its customer's too. Payments and refunds move an invoice's balance through an invoice
 * update (seen here); a new payment or attachment shows on its invoice. Bulk writes without an
 * id (`createMany` of the demo seed) announce nothing: no session exists yet to hear it.
 */
export const resourceChangesExtension = Prisma.defineExtension({
    name: 'resource-changes',
    query: {
        invoice: { create: invoiceWrite, update: invoiceWrite, upsert: invoiceWrite, delete: invoiceWrite, updateMany: invoiceUpdateMany },
        customer: { create: customerWrite, update: customerWrite, upsert: customerWrite, delete: customerWrite, updateMany: customerWrite },
        payment: { create: childOfInvoice, update: childOfInvoice },
        attachment: { create: childOfInvoice },
    },
});
//# sourceMappingURL=resource-changes.extension.js.map