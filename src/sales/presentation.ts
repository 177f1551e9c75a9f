/**
 * What a reader of a sale sees: the sale as the API presents it (services return it; routes wrap
 * it in their HTTP answer), and the answer a pre-capture keeps for Idempotency-Key replays.
 */
import type { Payment } from '../payments/model';
import type { SaleAnswer } from './schemas';
import { APPROVED_STATUSES, effectiveSaleStatus } from '../payments/state-table';

/** The answer a pre-capture gave, as kept on its sale for Idempotency-Key replays: status and JSON body. */
export interface KeptAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** A timestamp as answers state it; a date the model always has gives a string (the answer declares it not null). */
export function iso(date: Date): string;
export function iso(date: Date | null | undefined): string | null;
export function iso(date: Date | null | undefined): string | null {
  return date ? new Date(date).toISOString() : null;
}

export function presentSale(sale: Payment, extra: { cardToken?: string } = {}): SaleAnswer {
  const status = effectiveSaleStatus(sale);
  return {
    id: sale._id,
    approved: APPROVED_STATUSES.includes(sale.status),
    sale_status: status,
    payment_method: sale.paymentMethod,
    value: sale.amountCents,
    installments: sale.installments,
    order_reference: sale.orderReference,
    card: sale.card ? { brand: sale.card.brand, bin: sale.card.bin, last4: sale.card.last4 } : null,
    ...(extra.cardToken ? { card_token: extra.cardToken } : {}),
    pix: sale.pix
      ? { qr_code: sale.pix.qrCode, expires_at: iso(sale.pix.expiresAt), paid_at: iso(sale.pix.paidAt) }
      : null,
    denial_code: sale.denial?.code ?? null,
    denial_message: sale.denial?.message ?? null,
    acquirer: {
      payment_id: sale.acquirer.paymentId,
      tid: sale.acquirer.tid,
      authorization_code: sale.acquirer.authorizationCode,
      proof_of_sale: sale.acquirer.proofOfSale,
    },
    reconciling: Boolean(sale.reconciliation),
    captured_value: sale.capturedAt ? (sale.capturedValue ?? sale.amountCents) : null,
    captured_at: iso(sale.capturedAt),
    refunded_value: refundedValueOf(sale),
    cancelled_at: iso(sale.cancelledAt),
    refunded_at: iso(sale.refundedAt),
    created_at: iso(sale.createdAt),
    updated_at: iso(sale.updatedAt),
    ...(sale.origin ? { origin: { kind: sale.origin.kind, id: sale.origin.id } } : {}),
  };
}

/** Cents refunded: what succeeded refunds add up to; a sale REFUNDED by cancel-capture gave back all it captured. */
function refundedValueOf(sale: Payment): number {
  if (sale.refundedValue) return sale.refundedValue;
  return sale.status === 'REFUNDED' && sale.capturedAt ? (sale.capturedValue ?? sale.amountCents) : 0;
}

/** A pre-capture's outcome: the sale as presented (or as first presented, for a replay). */
export interface PreCaptureResult {
  sale: SaleAnswer;
  /** An Idempotency-Key replayed the first answer. */
  replayed: boolean;
}

/** The sale a kept answer presents. */
export function saleOfAnswer(answer: KeptAnswer): SaleAnswer {
  return answer.body.data as SaleAnswer;
}

export function keptAnswerOf(sale: Payment, extra: { cardToken?: string } = {}): KeptAnswer {
  return { status: 200, body: { status: 'success', data: presentSale(sale, extra) } };
}

/**
 * The answer kept for Idempotency-Key replays, without the card token: the token is shown once
 * and stored only as a hash, so a replay says it was issued instead of repeating it.
 */
export function storableAnswer(answer: KeptAnswer): { status: number; body: Record<string, unknown> } {
  const data = answer.body.data as Record<string, unknown> | undefined;
  if (!data || data.card_token === undefined) return { status: answer.status, body: answer.body };
  const { card_token: _omitted, ...rest } = data;
  return { status: answer.status, body: { ...answer.body, data: { ...rest, card_token_issued: true } } };
}
