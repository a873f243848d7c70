import { randomUUID } from 'node:crypto';
import type { InvoiceStatus, PaymentMethod, Prisma } from '../generated/prisma/client.js';
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
 * Customers, invoices (with lines) and payments for the demo workspace, so that `npm start`
 * gives an agent something to talk to at once. Runs once: skipped when the workspace has customers.
 */
export async function seedDemoBilling(prisma: PrismaService, workspaceId: string): Promise<void> {
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
    const paidMinor = status === 'paid' ? total : 0;
    invoices.push({
      id,
      workspaceId,
      customerId: customer.id,
      number: `INV-${String(n).padStart(6, '0')}`,
      status,
      currency,
      issueDate,
      dueDate,
      totalMinor: total,
      paidMinor,
      ...(status === 'cancelled' ? { cancelReason: 'Issued by mistake', cancelledAt: dueDate } : {}),
    });
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
  await prisma.client.invoice.createMany({ data: invoices });
  await prisma.client.invoiceLine.createMany({ data: lines });
  await prisma.client.payment.createMany({ data: payments });
}
