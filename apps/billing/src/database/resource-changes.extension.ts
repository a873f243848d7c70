import { Prisma } from '../generated/prisma/client.js';

/** Rows behind the billing resources that a write changed (`billing://invoices/{id}`, `billing://customers/{id}`). */
export interface ResourceChange {
  invoiceIds: string[];
  customerIds: string[];
  /** Invoices whose customer the write did not return (updateMany): the publisher looks it up. */
  invoicesWithoutCustomer: string[];
}

export type ResourceChangeSink = (change: ResourceChange) => void;

let sink: ResourceChangeSink | undefined;

/** Set by ResourceUpdatesPublisher while the application runs; no sink, no work. */
export function setResourceChangeSink(next: ResourceChangeSink | undefined): void {
  sink = next;
}

type Row = { id?: unknown; customerId?: unknown; invoiceId?: unknown } | null | undefined;
type Write = (params: { args: unknown; query: (args: never) => Promise<unknown> }) => Promise<unknown>;
const idOf = (value: unknown) => (typeof value === 'string' ? value : undefined);
const whereIdOf = (args: unknown) => idOf((args as { where?: { id?: unknown } } | undefined)?.where?.id);

/** Wraps one write: runs it, then hands the sink what it changed (reads never pass here). */
function watch(changed: (row: Row, args: unknown) => Partial<ResourceChange>): Write {
  return async ({ args, query }) => {
    const result = await query(args as never);
    if (sink) {
      const { invoiceIds = [], customerIds = [], invoicesWithoutCustomer = [] } = changed(result as Row, args);
      if (invoiceIds.length || customerIds.length) sink({ invoiceIds, customerIds, invoicesWithoutCustomer });
    }
    return result;
  };
}

const invoiceWrite = watch((row, args) => {
  const id = idOf(row?.id) ?? whereIdOf(args);
  const customerId = idOf(row?.customerId);
  if (!id) return {};
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
