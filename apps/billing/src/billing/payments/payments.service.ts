import { HttpStatus, Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service.js';
import type { TransactionClient } from '../../database/prisma.types.js';
import type { Invoice, Payment, Prisma, Refund } from '../../generated/prisma/client.js';
import { BillingError } from '../common/billing.errors.js';
import { currentWorkspaceId } from '../../identity/current-workspace.js';
import { decodeCursor, pageOf } from '../common/cursor.js';
import { formatDate, formatMoney } from '../common/money.js';
import { DEFAULT_PAGE_SIZE } from '../common/paging.js';
import type { PaymentListQueryDto, RefundPaymentDto, RegisterPaymentDto } from './payment-input.dto.js';
import type { PaymentMethodName } from './payment-method.js';
import type {
  InvoiceBalanceDto,
  PaymentDetailDto,
  PaymentDto,
  PaymentListDto,
  PaymentRefundedDto,
  PaymentRegisteredDto,
  RefundDto,
} from './payment-output.dto.js';
import { decideTrackingKey, TRACKING_KEY_CONFIDENCE, type TrackingKeyCandidate } from './tracking-key.js';

/** What identifies a payment of each method, in the question put to the user. */
const REFERENCE_LABEL: Record<PaymentMethodName, { en: string; es: string }> = {
  transfer: { en: 'bank tracking key (clave de rastreo)', es: 'la clave de rastreo' },
  card: { en: 'card authorization number', es: 'el número de autorización' },
  cash: { en: 'receipt number', es: 'el número de recibo' },
  check: { en: 'check number', es: 'el número de cheque' },
  other: { en: 'payment reference', es: 'la referencia del pago' },
};

/** How far ahead of the server clock `paid_at` may be (clock skew), in milliseconds. */
const PAID_AT_TOLERANCE_MS = 5 * 60_000;

/**
 * Payments and refunds of the current workspace. The same code serves REST and MCP; every write
 * runs in one transaction (the MCP call's, when there is one) and re-checks the invoice it read,
 * so two concurrent payments can never overpay an invoice.
 */
@Injectable()
export class PaymentsService {
  constructor(private readonly prisma: PrismaService) {}

  async register(dto: RegisterPaymentDto): Promise<PaymentRegisteredDto> {
    const workspaceId = currentWorkspaceId();
    return this.prisma.transaction(async (tx) => {
      const invoice = await tx.invoice.findFirst({ where: { id: dto.invoice_id, workspaceId } });
      if (!invoice) {
        throw BillingError.notFound(
          'Invoice',
          dto.invoice_id,
          'check the invoice id (a UUID) or look the invoice up by its number or customer first',
        );
      }
      assertPayable(invoice);
      if (dto.currency && dto.currency !== invoice.currency) {
        throw BillingError.businessRule(
          'currency_mismatch',
          `Invoice ${invoice.number} is in ${invoice.currency}, not ${dto.currency}. Register the payment in ${invoice.currency} ` +
            '(convert the amount with the user first) or omit currency.',
          `La factura ${invoice.number} está en ${invoice.currency}, no en ${dto.currency}. Registra el pago en ${invoice.currency}.`,
          'currency',
        );
      }
      const balance = invoice.totalMinor - invoice.paidMinor;
      if (dto.amount_minor > balance) {
        throw BillingError.businessRule(
          'amount_exceeds_balance',
          `amount_minor ${dto.amount_minor} (${formatMoney(dto.amount_minor, invoice.currency)}) is more than the outstanding balance ` +
            `of invoice ${invoice.number}: ${balance} (${formatMoney(balance, invoice.currency)}). Register at most ${balance}, ` +
            'or check the amount with the user.',
          `El monto ${formatMoney(dto.amount_minor, invoice.currency)} es mayor que el saldo pendiente de la factura ` +
            `${invoice.number}: ${formatMoney(balance, invoice.currency)}.`,
          'amount_minor',
        );
      }
      const paidAt = dto.paid_at ? new Date(dto.paid_at) : new Date();
      if (paidAt.getTime() > Date.now() + PAID_AT_TOLERANCE_MS) {
        throw BillingError.businessRule(
          'paid_at_in_future',
          `paid_at ${dto.paid_at} is in the future; give the date the money was actually paid, or omit paid_at for now.`,
          `La fecha de pago ${dto.paid_at} está en el futuro; indica la fecha real del pago.`,
          'paid_at',
        );
      }
      const reference = dto.reference?.trim() || this.referenceFromEvidence(dto.evidence.tracking_key_candidates, dto.method);
      await this.assertNewReference(tx, workspaceId, reference);

      const payment = await tx.payment.create({
        data: {
          workspaceId,
          invoiceId: invoice.id,
          amountMinor: dto.amount_minor,
          currency: invoice.currency,
          method: dto.method,
          paidAt,
          reference,
          evidence: {
            // The one cast: any JSON object is typed Record<string, unknown>, which Prisma's Json input does
            // not accept; it was parsed from the request's JSON, so it is JSON.
            raw_extracted: dto.evidence.raw_extracted as Prisma.InputJsonObject,
            tracking_key_candidates: dto.evidence.tracking_key_candidates.map(({ value, source, confidence }) => ({
              value,
              source,
              confidence,
            })),
          },
        },
      });
      const paidMinor = invoice.paidMinor + dto.amount_minor;
      const updated = await this.updateInvoice(tx, invoice, paidMinor, paidMinor >= invoice.totalMinor ? 'paid' : invoice.status);
      return { payment: toPaymentDto(payment), invoice: toInvoiceBalanceDto(updated) };
    });
  }

  async refund(paymentId: string, dto: RefundPaymentDto): Promise<PaymentRefundedDto> {
    const workspaceId = currentWorkspaceId();
    return this.prisma.transaction(async (tx) => {
      const payment = await tx.payment.findFirst({ where: { id: paymentId, workspaceId }, include: { invoice: true } });
      if (!payment)
        throw BillingError.notFound('Payment', paymentId, 'check the payment id (a UUID), or list the payments of the invoice first');
      const refundable = payment.amountMinor - payment.refundedMinor;
      if (refundable <= 0) {
        throw BillingError.businessRule(
          'nothing_to_refund',
          `Payment ${payment.id} (${formatMoney(payment.amountMinor, payment.currency)}) is already fully refunded; nothing was done.`,
          `El pago ${payment.id} ya fue reembolsado por completo; no se hizo nada.`,
        );
      }
      const amount = dto.amount_minor ?? refundable;
      if (amount > refundable) {
        throw BillingError.businessRule(
          'refund_exceeds_refundable',
          `amount_minor ${amount} (${formatMoney(amount, payment.currency)}) is more than what is still refundable on payment ` +
            `${payment.id}: ${refundable} (${formatMoney(refundable, payment.currency)}). Refund at most ${refundable}, or omit amount_minor to refund all of it.`,
          `El monto ${formatMoney(amount, payment.currency)} es mayor que lo reembolsable del pago: ${formatMoney(refundable, payment.currency)}.`,
          'amount_minor',
        );
      }
      const refund = await tx.refund.create({
        data: { workspaceId, paymentId: payment.id, amountMinor: amount, reason: dto.reason.trim() },
      });
      const moved = await tx.payment.updateMany({
        where: { id: payment.id, refundedMinor: payment.refundedMinor },
        data: { refundedMinor: { increment: amount } },
      });
      if (moved.count !== 1) throw concurrentUpdate('payment', payment.id);
      const invoice = payment.invoice;
      const paidMinor = invoice.paidMinor - amount;
      const status = invoice.status === 'paid' && paidMinor < invoice.totalMinor ? reopenedStatus(invoice) : invoice.status;
      const updated = await this.updateInvoice(tx, invoice, paidMinor, status);
      const after = await tx.payment.findUniqueOrThrow({ where: { id: payment.id } });
      return { refund: toRefundDto(refund), payment: toPaymentDto(after), invoice: toInvoiceBalanceDto(updated) };
    });
  }

  async list(query: PaymentListQueryDto): Promise<PaymentListDto> {
    const workspaceId = currentWorkspaceId();
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const after = decodeCursor(query.cursor, 'timestamp');
    const afterDate = after ? new Date(after.key) : undefined;
    const rows = await this.prisma.db.payment.findMany({
      where: {
        workspaceId,
        ...(query.invoice_id ? { invoiceId: query.invoice_id } : {}),
        ...(after && afterDate ? { OR: [{ createdAt: { lt: afterDate } }, { createdAt: afterDate, id: { lt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    });
    const { page, nextCursor } = pageOf(rows, limit, (row) => row.createdAt.toISOString());
    return { items: page.map(toPaymentDto), next_cursor: nextCursor };
  }

  async get(id: string): Promise<PaymentDetailDto> {
    const payment = await this.prisma.db.payment.findFirst({
      where: { id, workspaceId: currentWorkspaceId() },
      include: { refunds: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
    });
    if (!payment) throw BillingError.notFound('Payment', id, 'check the payment id (a UUID), or list the payments of the invoice first');
    return {
      ...toPaymentDto(payment),
      evidence: (payment.evidence as Record<string, unknown> | null) ?? null,
      refunds: payment.refunds.map(toRefundDto),
    };
  }

  /** The tracking key the evidence names unambiguously, else the question to ask the user. */
  private referenceFromEvidence(candidates: readonly TrackingKeyCandidate[], method: PaymentMethodName): string {
    const decision = decideTrackingKey(candidates);
    if (decision.kind === 'identified') return decision.value;
    const what = REFERENCE_LABEL[method];
    const listed = decision.candidates.map((c) => `"${c.value}"`).join(', ');
    const detailed = decision.candidates.map((c) => `"${c.value}" (${c.source}, confidence ${c.confidence})`).join(', ');
    const why = {
      none: 'the evidence has no tracking key candidate and no reference was given',
      low_confidence: `no tracking key candidate reaches confidence ${TRACKING_KEY_CONFIDENCE}: ${detailed}`,
      conflicting: `several tracking key candidates are confident but differ: ${detailed}`,
    }[decision.reason];
    const porque = {
      none: 'la evidencia no trae ninguna clave de rastreo y no se dio una referencia',
      low_confidence: `ninguna clave de rastreo candidata es confiable: ${listed}`,
      conflicting: `hay varias claves de rastreo confiables y son distintas: ${listed}`,
    }[decision.reason];
    const question =
      decision.reason === 'none'
        ? `What is the ${what.en} of this payment? It is printed on the receipt or confirmation.`
        : decision.candidates.length === 1
          ? `Is ${listed} the ${what.en} of this payment? Please confirm it or tell me the correct one.`
          : `Which of these is the ${what.en} of this payment: ${listed}? Or tell me the correct one.`;
    throw BillingError.needsMoreInfo(
      'ambiguous_tracking_key',
      `The payment cannot be identified: ${why}. Nothing was registered. Ask the user, then call again with reference set to the confirmed key.`,
      question,
      {
        message_es: `No se puede identificar el pago: ${porque}. No se registró nada; confirma ${what.es} con el usuario.`,
        field: 'reference',
      },
    );
  }

  /** One bank movement is one payment: a reference already on file means it was registered before. */
  private async assertNewReference(tx: TransactionClient, workspaceId: string, reference: string): Promise<void> {
    const existing = await tx.payment.findFirst({
      where: { workspaceId, reference: { equals: reference, mode: 'insensitive' } },
      select: { id: true, invoiceId: true },
    });
    if (existing) {
      throw BillingError.businessRule(
        'duplicate_reference',
        `A payment with reference ${reference} is already registered (payment ${existing.id}, invoice ${existing.invoiceId}). ` +
          'Do not register it twice; if this is a different payment, confirm its own tracking key with the user.',
        `Ya hay un pago registrado con la referencia ${reference} (pago ${existing.id}); no lo registres dos veces.`,
        'reference',
      );
    }
  }

  /** Moves the invoice from the state that was read; refuses when it changed meanwhile. */
  private async updateInvoice(tx: TransactionClient, invoice: Invoice, paidMinor: number, status: Invoice['status']): Promise<Invoice> {
    const moved = await tx.invoice.updateMany({
      where: { id: invoice.id, workspaceId: invoice.workspaceId, paidMinor: invoice.paidMinor, status: invoice.status },
      data: { paidMinor, status },
    });
    if (moved.count !== 1) throw concurrentUpdate('invoice', invoice.id);
    return tx.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
  }
}

function assertPayable(invoice: Invoice): void {
  if (invoice.status === 'draft') {
    throw BillingError.businessRule(
      'invoice_not_payable',
      `Invoice ${invoice.number} is still a draft: it must be issued (sent) before a payment can be registered against it.`,
      `La factura ${invoice.number} es un borrador: debe emitirse antes de registrar pagos.`,
      'invoice_id',
    );
  }
  if (invoice.status === 'cancelled') {
    throw BillingError.businessRule(
      'invoice_not_payable',
      `Invoice ${invoice.number} is cancelled; payments cannot be registered against it. Ask the user which invoice the payment is for.`,
      `La factura ${invoice.number} está cancelada; no admite pagos. Pregunta al usuario a qué factura corresponde el pago.`,
      'invoice_id',
    );
  }
  if (invoice.paidMinor >= invoice.totalMinor) {
    throw BillingError.businessRule(
      'invoice_already_paid',
      `Invoice ${invoice.number} is already fully paid (outstanding balance 0). Nothing was registered; ask the user which invoice the payment is for.`,
      `La factura ${invoice.number} ya está pagada por completo (saldo 0). No se registró nada.`,
      'invoice_id',
    );
  }
}

/** A paid invoice that a refund leaves short goes back to sent, or overdue once its due date has passed. */
function reopenedStatus(invoice: Invoice): Invoice['status'] {
  return formatDate(invoice.dueDate) < formatDate(new Date()) ? 'overdue' : 'sent';
}

function concurrentUpdate(what: string, id: string): BillingError {
  return new BillingError(
    HttpStatus.CONFLICT,
    'concurrent_update',
    `The ${what} ${id} changed while this operation ran; nothing was written. Call again with the same idempotency_key.`,
    { message_es: `El registro cambió mientras se procesaba la operación; no se escribió nada. Vuelve a intentarlo.` },
  );
}

export function toPaymentDto(payment: Payment): PaymentDto {
  return {
    id: payment.id,
    invoice_id: payment.invoiceId,
    amount_minor: payment.amountMinor,
    currency: payment.currency,
    method: payment.method,
    paid_at: payment.paidAt.toISOString(),
    reference: payment.reference,
    refunded_minor: payment.refundedMinor,
    refundable_minor: payment.amountMinor - payment.refundedMinor,
    created_via: payment.createdVia,
    updated_via: payment.updatedVia,
    created_at: payment.createdAt.toISOString(),
  };
}

export function toRefundDto(refund: Refund): RefundDto {
  return {
    id: refund.id,
    payment_id: refund.paymentId,
    amount_minor: refund.amountMinor,
    reason: refund.reason,
    created_via: refund.createdVia,
    created_at: refund.createdAt.toISOString(),
  };
}

export function toInvoiceBalanceDto(invoice: Invoice): InvoiceBalanceDto {
  return {
    id: invoice.id,
    number: invoice.number,
    status: invoice.status,
    currency: invoice.currency,
    total_minor: invoice.totalMinor,
    paid_minor: invoice.paidMinor,
    balance_minor: invoice.totalMinor - invoice.paidMinor,
  };
}
