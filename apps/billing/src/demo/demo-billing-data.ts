import { randomUUID } from 'node:crypto';
import { Prisma, type InvoiceStatus, type PaymentMethod } from '../generated/prisma/client.js';
import { formatDate } from '../billing/common/money.js';
import type { PrismaService } from '../database/prisma.service.js';

/** Deterministic pseudo-random numbers (mulberry32): the same demo data at every fresh start. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMPANIES = [
  'Acme Logistics',
  'Bosque Verde Café',
  'Cimarrón Textiles',
  'Delta Dental Group',
  'Estudio Norte',
  'Ferretería El Clavo',
  'Grupo Altamira',
  'Hotel Las Brisas',
  'Imprenta Lumen',
  'Jardines del Valle',
  'Kappa Software',
  'La Espiga Panadería',
  'Mecánica Rápida',
  'Nube Azul Hosting',
  'Óptica Visión',
  'Papelería Central',
  'Química Orion',
  'Restaurante Sazón',
  'Solaris Energía',
  'Taller Creativo',
  'Ultramar Importaciones',
  'Veterinaria Huellitas',
  'Wolf & Partners',
  'Xochi Flores',
  'Yoga Raíz',
  'Zafiro Joyería',
  'Atlas Constructora',
  'Brisa Marina Tours',
  'Cumbre Consultores',
  'Dinamo Gym',
  'Eólica del Sur',
  'Fábrica de Sueños',
  'Galería Índigo',
  'Horizonte Seguros',
  'Isla Bonita Resort',
  'Jade Cosméticos',
];
const ITEMS = [
  'Consulting hours',
  'Monthly subscription',
  'Installation',
  'Maintenance plan',
  'Training session',
  'Hardware',
  'Support tier',
  'Design work',
];
const METHODS: PaymentMethod[] = ['transfer', 'card', 'transfer', 'cash', 'check'];

function slug(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[^\w\s&]/g, '')
    .replace(/&/g, 'and')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, '-');
}

function day(offsetDays: number, today: Date): Date {
  return new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + offsetDays));
}

/**
 * Invoices of the two years before the recent ones (`history`): enough rows that exporting the
 * demo workspace's statement (billing_statement_export) is real long work, with progress to watch:
 * 6,000 invoices with one line each and about 6,200 payments, with the recent ones about 12,700
 * statement rows (a 2 MB CSV), which take 0.5–2 s to export (embedded database or PostgreSQL).
 * Inserted in bulk (one statement per table), once, at the first start: 2–6 s.
 */
export const DEMO_HISTORY_INVOICES = 6000;

/** Old invoices are settled or written off: the demo's open and overdue amounts stay those of the last year. */
const HISTORY_STATUSES: ReadonlyArray<[InvoiceStatus, number]> = [
  ['paid', 0.88],
  ['cancelled', 0.04],
  ['overdue', 0.08],
];

/**
 * Customers, invoices (with lines) and payments for the demo workspace, so that `npm start`
 * gives an agent something to talk to at once: 320 invoices of the last year and, with `history`,
 * {@link DEMO_HISTORY_INVOICES} of the two years before. Invoice numbers follow issue dates across
 * both (the recent ones keep their order and come after). Runs once: skipped when the workspace
 * has customers.
 */
export async function seedDemoBilling(prisma: PrismaService, workspaceId: string, options: { history?: boolean } = {}): Promise<void> {
  if (await prisma.client.customer.count({ where: { workspaceId } })) return;
  const next = random(20261129);
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)];
  const today = day(0, new Date());

  const customers = COMPANIES.map((company) => ({
    id: randomUUID(),
    workspaceId,
    name: company,
    email: `billing@${slug(company)}.example`,
    taxId: `${slug(company).slice(0, 3).toUpperCase()}${String(100000 + Math.floor(next() * 899999))}`,
  }));
  await prisma.client.customer.createMany({ data: customers });

  const invoices: Prisma.InvoiceCreateManyInput[] = [];
  const lines: Prisma.InvoiceLineCreateManyInput[] = [];
  const payments: Prisma.PaymentCreateManyInput[] = [];
  const numbered = options.history ? history(workspaceId, customers, today, { invoices, lines, payments }) : 0;
  for (let n = 1; n <= 320; n++) {
    const customer = pick(customers);
    const currency = next() < 0.8 ? 'MXN' : 'USD';
    const issueDate = day(-Math.floor(next() * 360), today);
    const dueDate = new Date(issueDate.getTime() + pick([15, 30, 45]) * 86_400_000);
    const id = randomUUID();
    let total = 0;
    const lineCount = 1 + Math.floor(next() * 4);
    for (let position = 1; position <= lineCount; position++) {
      const quantity = 1 + Math.floor(next() * 10);
      const unitPriceMinor = (5 + Math.floor(next() * 200)) * 1000;
      total += quantity * unitPriceMinor;
      lines.push({
        id: randomUUID(),
        workspaceId,
        invoiceId: id,
        position,
        description: pick(ITEMS),
        quantity,
        unitPriceMinor,
        amountMinor: quantity * unitPriceMinor,
      });
    }
    const roll = next();
    const pastDue = dueDate < today;
    let status: InvoiceStatus = roll < 0.05 ? 'draft' : roll < 0.1 ? 'cancelled' : roll < 0.65 ? 'paid' : pastDue ? 'overdue' : 'sent';
    if (status === 'paid' && issueDate > today) status = 'sent';
    const invoice = invoiceRow({
      id,
      workspaceId,
      customerId: customer.id,
      number: `INV-${String(numbered + n).padStart(6, '0')}`,
      status,
      currency,
      issueDate,
      dueDate,
      totalMinor: total,
    });
    invoices.push(invoice);
    const { paidMinor } = invoice;
    if (paidMinor) {
      payments.push({
        id: randomUUID(),
        workspaceId,
        invoiceId: id,
        amountMinor: paidMinor,
        currency,
        method: pick(METHODS),
        paidAt: new Date(Math.min(dueDate.getTime(), today.getTime())),
        reference: `TRK${Math.floor(next() * 1e10)}`,
      });
    }
  }
  await insertRows(prisma, { invoices, lines, payments });
}

/**
 * The rows in three statements, one per table, each column sent as one array parameter
 * (`INSERT … SELECT … FROM unnest(…)`): thousands of rows in one round trip each, without the
 * ORM's per-row work nor a statement of tens of thousands of placeholders (Prisma's `createMany`
 * took 16 s for the history on the embedded database). The `*_via` columns are stamped `system`,
 * as the channel stamp would (this runs in the `system` request context).
 */
async function insertRows(prisma: PrismaService, rows: Rows): Promise<void> {
  const column = <R, V>(list: readonly R[], value: (row: R) => V) => list.map(value);
  const date = (value: Date | string) => formatDate(new Date(value));
  const time = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);
  const { invoices, lines, payments } = rows;
  await prisma.sql(Prisma.sql`
    INSERT INTO invoices (id, workspace_id, customer_id, number, status, currency, issue_date, due_date, total_minor, paid_minor,
                          cancel_reason, cancelled_at, created_via, updated_via, updated_at)
    SELECT r.id, r.workspace_id, r.customer_id, r.number, r.status::"InvoiceStatus", r.currency, r.issue_date, r.due_date, r.total_minor,
           r.paid_minor, r.cancel_reason, r.cancelled_at, 'system', 'system', now()
    FROM unnest(${column(invoices, (i) => i.id)}::uuid[], ${column(invoices, (i) => i.workspaceId)}::uuid[],
                ${column(invoices, (i) => i.customerId)}::uuid[], ${column(invoices, (i) => i.number)}::text[],
                ${column(invoices, (i) => i.status)}::text[], ${column(invoices, (i) => i.currency)}::text[],
                ${column(invoices, (i) => date(i.issueDate))}::date[], ${column(invoices, (i) => date(i.dueDate))}::date[],
                ${column(invoices, (i) => i.totalMinor)}::int[], ${column(invoices, (i) => i.paidMinor ?? 0)}::int[],
                ${column(invoices, (i) => i.cancelReason ?? null)}::text[], ${column(invoices, (i) => time(i.cancelledAt))}::timestamp[])
      AS r(id, workspace_id, customer_id, number, status, currency, issue_date, due_date, total_minor, paid_minor, cancel_reason, cancelled_at)`);
  await prisma.sql(Prisma.sql`
    INSERT INTO invoice_lines (id, workspace_id, invoice_id, position, description, quantity, unit_price_minor, amount_minor, created_via, updated_via)
    SELECT r.*, 'system', 'system'
    FROM unnest(${column(lines, (l) => l.id)}::uuid[], ${column(lines, (l) => l.workspaceId)}::uuid[],
                ${column(lines, (l) => l.invoiceId)}::uuid[], ${column(lines, (l) => l.position)}::int[],
                ${column(lines, (l) => l.description)}::text[], ${column(lines, (l) => l.quantity)}::int[],
                ${column(lines, (l) => l.unitPriceMinor)}::int[], ${column(lines, (l) => l.amountMinor)}::int[]) AS r`);
  await prisma.sql(Prisma.sql`
    INSERT INTO payments (id, workspace_id, invoice_id, amount_minor, currency, method, paid_at, reference, created_via, updated_via, updated_at)
    SELECT r.id, r.workspace_id, r.invoice_id, r.amount_minor, r.currency, r.method::"PaymentMethod", r.paid_at, r.reference,
           'system', 'system', now()
    FROM unnest(${column(payments, (p) => p.id)}::uuid[], ${column(payments, (p) => p.workspaceId)}::uuid[],
                ${column(payments, (p) => p.invoiceId)}::uuid[], ${column(payments, (p) => p.amountMinor)}::int[],
                ${column(payments, (p) => p.currency)}::text[], ${column(payments, (p) => p.method)}::text[],
                ${column(payments, (p) => time(p.paidAt))}::timestamp[], ${column(payments, (p) => p.reference ?? null)}::text[])
      AS r(id, workspace_id, invoice_id, amount_minor, currency, method, paid_at, reference)`);
}

interface Rows {
  invoices: Prisma.InvoiceCreateManyInput[];
  lines: Prisma.InvoiceLineCreateManyInput[];
  payments: Prisma.PaymentCreateManyInput[];
}

/**
 * {@link DEMO_HISTORY_INVOICES} invoices issued 361 to 1,095 days ago, numbered from INV-000001 in
 * issue-date order, with their lines and payments (one, or two for about one in six); returns how
 * many numbers they took. Its own pseudo-random sequence: the recent invoices are the same with or
 * without it.
 */
function history(workspaceId: string, customers: ReadonlyArray<{ id: string }>, today: Date, rows: Rows): number {
  const next = random(20241129);
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)];
  const issued = Array.from({ length: DEMO_HISTORY_INVOICES }, () => day(-361 - Math.floor(next() * 735), today)).sort(
    (a, b) => a.getTime() - b.getTime(),
  );
  issued.forEach((issueDate, i) => {
    const id = randomUUID();
    const currency = next() < 0.8 ? 'MXN' : 'USD';
    const dueDate = new Date(issueDate.getTime() + pick([15, 30, 45]) * 86_400_000);
    // One line each: the lines are not in a statement, and every row costs at the first start.
    const quantity = 1 + Math.floor(next() * 10);
    const unitPriceMinor = (5 + Math.floor(next() * 200)) * 1000;
    const total = quantity * unitPriceMinor;
    rows.lines.push({
      id: randomUUID(),
      workspaceId,
      invoiceId: id,
      position: 1,
      description: pick(ITEMS),
      quantity,
      unitPriceMinor,
      amountMinor: total,
    });
    const roll = next();
    let status: InvoiceStatus = 'paid';
    for (let bound = 0, k = 0; k < HISTORY_STATUSES.length; k++) {
      bound += HISTORY_STATUSES[k][1];
      if (roll < bound) {
        status = HISTORY_STATUSES[k][0];
        break;
      }
    }
    const invoice = invoiceRow({
      id,
      workspaceId,
      customerId: pick(customers).id,
      number: `INV-${String(i + 1).padStart(6, '0')}`,
      status,
      currency,
      issueDate,
      dueDate,
      totalMinor: total,
    });
    rows.invoices.push(invoice);
    const { paidMinor } = invoice;
    if (!paidMinor) return;
    // Paid between the issue date and a little after the due date, at a business hour (UTC).
    const paidAt = (offsetDays: number) =>
      new Date(
        issueDate.getTime() + offsetDays * 86_400_000 + (14 + Math.floor(next() * 9)) * 3_600_000 + Math.floor(next() * 3600) * 1000,
      );
    const term = (dueDate.getTime() - issueDate.getTime()) / 86_400_000;
    const first = next() < 0.17 ? Math.round(total * (0.3 + next() * 0.4)) : total;
    for (const [amountMinor, offset] of [
      [first, Math.floor(next() * term)],
      [total - first, term + Math.floor(next() * 10)],
    ]) {
      if (!amountMinor) continue;
      rows.payments.push({
        id: randomUUID(),
        workspaceId,
        invoiceId: id,
        amountMinor,
        currency,
        method: pick(METHODS),
        paidAt: paidAt(offset),
        reference: `TRK${Math.floor(next() * 1e10)}`,
      });
    }
  });
  return DEMO_HISTORY_INVOICES;
}

/**
 * A demo invoice row: a `paid` one is paid in full, a `cancelled` one carries its reason and
 * date (the due date), as the base data and the two-year history both need.
 */
function invoiceRow(
  row: Omit<Prisma.InvoiceCreateManyInput, 'paidMinor' | 'cancelReason' | 'cancelledAt'> & {
    status: InvoiceStatus;
    totalMinor: number;
    dueDate: Date;
  },
): Prisma.InvoiceCreateManyInput & { paidMinor: number } {
  return {
    ...row,
    paidMinor: row.status === 'paid' ? row.totalMinor : 0,
    ...(row.status === 'cancelled' ? { cancelReason: 'Issued by mistake', cancelledAt: row.dueDate } : {}),
  };
}
