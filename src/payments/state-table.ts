/**
 * The sale state table, pure: which acquirer status means which of our statuses, which operation
 * moves a sale from which status to which, what a status change writes, and how a status reads.
 * No I/O here: every rule of it is unit-tested on its own (test/payments/state-table.test.ts).
 *
 *   PROCESSING --authorize--> PRE_CAPTURED | DENIED | FAILED      (card)
 *   PROCESSING --create-----> PENDING | FAILED                     (PIX)
 *   PRE_CAPTURED --capture--> CONFIRMED
 *   PRE_CAPTURED --void-----> CANCELLED
 *   CONFIRMED ----refund----> REFUNDED
 *   CONFIRMED | PARTIALLY_REFUNDED --(refunds, src/refunds)--> PARTIALLY_REFUNDED | REFUNDED
 *   PENDING --(notice)------> CONFIRMED | EXPIRED                  (PIX)
 */
import { AcquirerStatus, type AcquirerSale } from '../acquirer/client';
import type { Payment, SaleOperation, PaymentStatus } from './model';

/** The sale status a reader sees: an unpaid PIX past its expiry is EXPIRED even before the acquirer says so. */
export function effectiveSaleStatus(sale: Payment, now = new Date()): PaymentStatus {
  if (sale.status === 'PENDING' && sale.pix?.expiresAt && new Date(sale.pix.expiresAt).getTime() <= now.getTime())
    return 'EXPIRED';
  return sale.status;
}

/** Statuses of a sale the acquirer accepted (`approved` in answers). */
export const APPROVED_STATUSES: PaymentStatus[] = [
  'PRE_CAPTURED',
  'CONFIRMED',
  'PENDING',
  'CANCELLED',
  'REFUNDED',
  'PARTIALLY_REFUNDED',
  'EXPIRED',
];

/** Our status for an acquirer status; null when it decides nothing. */
export function statusFromAcquirer(
  acquirerStatus: number,
  sale: Pick<Payment, 'paymentMethod' | 'status'>,
): PaymentStatus | null {
  const method = sale.paymentMethod;
  switch (acquirerStatus) {
    case AcquirerStatus.Authorized:
      return 'PRE_CAPTURED';
    case AcquirerStatus.PaymentConfirmed:
      // The acquirer keeps a partially refunded sale captured (2): the refunds core keeps what is refunded.
      return sale.status === 'PARTIALLY_REFUNDED' ? 'PARTIALLY_REFUNDED' : 'CONFIRMED';
    case AcquirerStatus.Denied:
      return 'DENIED';
    case AcquirerStatus.Voided:
      // The acquirer answers Voided (10) to a same-day cancel of a captured sale too: for us that is a refund.
      return sale.status === 'CONFIRMED' || sale.status === 'PARTIALLY_REFUNDED' ? 'REFUNDED' : 'CANCELLED';
    case AcquirerStatus.Refunded:
      return 'REFUNDED';
    case AcquirerStatus.Pending:
      return method === 'pix' ? 'PENDING' : null;
    case AcquirerStatus.Aborted:
      return method === 'pix' ? 'EXPIRED' : 'FAILED';
    default:
      return null;
  }
}

/** The fields a status change writes, from what the acquirer said. */
export function settledFields(
  sale: Payment,
  status: PaymentStatus,
  truth: Partial<AcquirerSale> & { status: number },
): Record<string, unknown> {
  const now = new Date();
  const set: Record<string, unknown> = {
    status,
    'acquirer.status': truth.status,
    reconciliation: null,
    reconciling: false,
  };
  if (truth.paymentId) {
    set['acquirer.paymentId'] = truth.paymentId;
    set.acquirerPaymentId = truth.paymentId;
  }
  if (truth.returnCode !== undefined) set['acquirer.returnCode'] = truth.returnCode;
  if (truth.returnMessage !== undefined) set['acquirer.returnMessage'] = truth.returnMessage;
  if (truth.tid) {
    set['acquirer.tid'] = truth.tid;
    set.acquirerTid = truth.tid;
  }
  if (truth.proofOfSale) set['acquirer.proofOfSale'] = truth.proofOfSale;
  if (truth.authorizationCode) set['acquirer.authorizationCode'] = truth.authorizationCode;
  if (status === 'DENIED') set.denial = { code: truth.returnCode ?? '', message: truth.returnMessage ?? '' };
  if (status === 'CONFIRMED' && !sale.capturedAt) set.capturedAt = now;
  // What the acquirer captured (its CapturedAmount, or what a capture asked for); 0 or absent: all of it.
  if (status === 'CONFIRMED' && !sale.capturedValue) set.capturedValue = truth.capturedAmountCents || sale.amountCents;
  if (status === 'CANCELLED') set.cancelledAt = now;
  if (status === 'REFUNDED') set.refundedAt = now;
  if (sale.paymentMethod === 'pix') {
    const paidAt = status === 'CONFIRMED' ? (sale.pix?.paidAt ?? now) : (sale.pix?.paidAt ?? null);
    const qrCode = truth.qrCodeString ?? sale.pix?.qrCode;
    const expiresAt = truth.expiresAt ? new Date(truth.expiresAt) : (sale.pix?.expiresAt ?? null);
    if (qrCode) set.pix = { qrCode, expiresAt, paidAt };
  }
  return set;
}

/**
 * The sale as a `$set` of these fields (dotted paths included) leaves it: what an answer shows before the write is
 * sent.
 */
export function withFieldsSet(sale: Payment, set: Record<string, unknown>): Payment {
  const moved = structuredClone(sale) as unknown as Record<string, unknown>;
  for (const [path, value] of Object.entries(set)) {
    const keys = path.split('.');
    let target = moved;
    for (const key of keys.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
    target[keys[keys.length - 1]] = value;
  }
  return moved as unknown as Payment;
}

/**
 * A card sale's operations through the acquirer: the status each leaves and reaches, and the
 * acquirer statuses that mean it took effect.
 */
export interface OperationRule {
  from: PaymentStatus;
  to: PaymentStatus;
  acquirerStatuses: readonly number[];
}

export const SALE_OPERATIONS: Record<Exclude<SaleOperation, 'authorize'>, OperationRule> = {
  capture: { from: 'PRE_CAPTURED', to: 'CONFIRMED', acquirerStatuses: [AcquirerStatus.PaymentConfirmed] },
  void: { from: 'PRE_CAPTURED', to: 'CANCELLED', acquirerStatuses: [AcquirerStatus.Voided] },
  // The acquirer answers Voided (10) to a same-day cancel of a captured sale: for us that is a refund.
  refund: { from: 'CONFIRMED', to: 'REFUNDED', acquirerStatuses: [AcquirerStatus.Refunded, AcquirerStatus.Voided] },
};

/**
 * The statuses the refunds core (src/refunds) owns once money was taken: it settles them against the
 * acquirer's cumulative VoidedAmount. An acquirer notice never moves a sale out of them: a PIX with a
 * refund in progress reads Status 12 (which would read PENDING) and one partly refunded reads 11.
 */
export const REFUND_OWNED_STATUSES: readonly PaymentStatus[] = ['CONFIRMED', 'PARTIALLY_REFUNDED', 'REFUNDED'];

/** Whether a notice (or a read of the acquirer after one) may move a sale in this status. */
export const noticeMayMove = (status: PaymentStatus): boolean => !REFUND_OWNED_STATUSES.includes(status);

/** A PIX paid in its last second may be notified a little after its expiry: wait this long before asking. */
export const PIX_EXPIRY_GRACE_MS = 2 * 60_000;

/** A PENDING PIX whose expiry (plus a grace) has passed with no notice applied: paid or expired, we must ask. */
export function isUnnoticedPixPastExpiry(sale: Payment, now: Date, graceMs = PIX_EXPIRY_GRACE_MS): boolean {
  return (
    sale.paymentMethod === 'pix' &&
    sale.status === 'PENDING' &&
    Boolean(sale.acquirer.paymentId) &&
    Boolean(sale.pix?.expiresAt) &&
    new Date(sale.pix!.expiresAt!).getTime() < now.getTime() - graceMs
  );
}
