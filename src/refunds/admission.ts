/**
 * A refund request: the sale's rules, then admission under the sale's next slot (model.ts), then
 * the first turn of the sale's send lane right away. The answer is 201 when the acquirer settled the
 * refund in that turn, 202 with the pending refund when it waits its turn (docs/api/refunds.md).
 */
import { nextId } from '../db/ids';
import { createOnce } from '../db/claims';
import { ApiError, notFound } from '../platform/errors';
import { findSale } from '../payments/transitions';
import { type Payment } from '../payments/model';
import { RefundModel, type Refund } from '../payments/refund-model';
import { presentRefund } from './presentation';
import { refundEvent } from './events';
import { oweEvents, owedBy, owedFields, recordOwed } from '../events/outbox';
import type { RefundAnswer, RefundInput } from './schemas';
import { admitAndSend, capturedValueOf } from './sending';

/** The acquirer refunds a captured card sale up to 360 days after its capture, a PIX up to 90 days after payment. */
export const REFUND_WINDOW_DAYS = 360;
export const PIX_REFUND_WINDOW_DAYS = 90;
const DAY_MS = 24 * 3600_000;
/** Admission retries after losing a slot to a concurrent request; each loss means another was admitted. */
const ADMISSION_ATTEMPTS = 200;

export interface RefundOutcome {
  httpStatus: 201 | 202;
  refund: RefundAnswer;
}

/** Who made the request, for the Idempotency-Key's record. */
export interface KeyUseOfRefund {
  recordId: string;
  createdAt: Date;
}

function refuseSale(sale: Payment, now: Date): void {
  if (sale.reconciliation) {
    throw new ApiError(
      409,
      { detail: 'The outcome of the last acquirer call on this sale is being confirmed. Retry later.' },
      { 'Retry-After': '2' },
    );
  }
  if (sale.status === 'REFUNDED') throw new ApiError(422, { detail: 'This sale is already fully refunded.' });
  if (sale.status !== 'CONFIRMED' && sale.status !== 'PARTIALLY_REFUNDED') {
    throw new ApiError(400, {
      detail:
        'Only a captured card sale or a paid PIX (CONFIRMED or PARTIALLY_REFUNDED) can be refunded; ' +
        `this sale is ${sale.status}.`,
    });
  }
  const pix = sale.paymentMethod === 'pix';
  const since = pix ? (sale.pix?.paidAt ?? sale.capturedAt) : sale.capturedAt;
  const windowDays = pix ? PIX_REFUND_WINDOW_DAYS : REFUND_WINDOW_DAYS;
  if (since && now.getTime() - new Date(since).getTime() > windowDays * DAY_MS) {
    throw new ApiError(422, {
      detail: pix
        ? `This PIX was paid more than ${windowDays} days ago: the acquirer no longer refunds it.`
        : `This sale was captured more than ${windowDays} days ago: the acquirer no longer refunds it.`,
    });
  }
}

/**
 * Admits a refund of the sale: the sum of its pending and succeeded refunds never exceeds what was
 * captured. Each try reads the sale's refunds (the first may be given: the lane holder's read) and
 * inserts the next slot; losing the slot means another request was admitted in between, so this one
 * reads again and checks again. The insert owes refund.pending: the caller records it (recordAdmission),
 * or the lane's turn records it with the refund's outcome when it settles it at once.
 */
export async function admit(
  sale: Payment,
  input: RefundInput,
  keyUse: KeyUseOfRefund | null,
  hold: Pick<Refund, 'kind' | 'chargebackId'> = {},
  firstRead: Refund[] | null = null,
): Promise<Refund> {
  const captured = capturedValueOf(sale);
  let read = firstRead;
  for (let attempt = 0; attempt < ADMISSION_ATTEMPTS; attempt++) {
    const refunds =
      read ?? (await RefundModel.find({ saleId: sale._id }, { status: 1, valueCents: 1, kind: 1 }).lean());
    read = null;
    const committed = refunds
      .filter((refund) => refund.status !== 'failed')
      .reduce((sum, refund) => sum + refund.valueCents, 0);
    const left = captured - committed;
    const chargedBack = refunds.some((refund) => refund.kind === 'chargeback' && refund.status !== 'failed');
    if (chargedBack && !hold.kind)
      throw new ApiError(422, {
        detail:
          'A chargeback of this sale was accepted (or is being accepted): its money goes back through the chargeback.',
      });
    if (left <= 0) throw new ApiError(422, { detail: 'Nothing is left to refund on this sale.' });
    const value = input.value ?? left;
    if (value > left) {
      throw new ApiError(422, {
        detail:
          `At most ${left} cents are left to refund on this sale ` +
          `(captured ${captured}, refunded or pending ${committed}).`,
      });
    }
    const fields = {
      _id: await nextId('refunds'),
      saleId: sale._id,
      merchantId: sale.merchantId,
      slot: `${sale._id}:${refunds.length}`,
      valueCents: value,
      reason: input.reason ?? null,
      metadata: input.metadata ?? null,
      status: 'pending' as const,
      idempotencyRecordId: keyUse?.recordId ?? null,
      idempotencyRecordCreatedAt: keyUse?.createdAt ?? null,
      ...hold,
    };
    // The insert owes refund.pending (src/events/outbox.ts), with the refund as it is stored.
    const at = new Date();
    const owed = oweEvents([refundEvent({ ...fields, createdAt: at, updatedAt: at } as Refund)], at);
    const admitted = await createOnce(RefundModel, { ...fields, createdAt: at, updatedAt: at, ...owedFields(owed) });
    if (admitted) return admitted;
  }
  throw new ApiError(409, { detail: 'Too many refunds of this sale at once. Retry later.' }, { 'Retry-After': '1' });
}

/**
 * Records the refund.pending a refund's admission owes (`refund` as admitted, or as its turn left it
 * still pending). A refund its turn settled had it recorded with its outcome.
 */
export async function recordAdmission(refund: Refund): Promise<void> {
  if (refund.status === 'pending') await recordOwed(RefundModel, refund._id, owedBy(refund));
}

/**
 * Admits a refund and gives it its first turn of the sale's send lane: holding the lane when it is
 * free, so the refunds the admission reads are the turn's, and the turn knows what it wrote. `check`
 * refuses the sale as the lane's holder reads it (what it is now). `latest`: the refund as it is now.
 */
export async function admitWithTurn(
  sale: Payment,
  input: RefundInput,
  keyUse: KeyUseOfRefund | null,
  check: (current: Payment) => void,
): Promise<{ admitted: Refund; latest: Refund }> {
  return admitAndSend(sale._id, async (read) => {
    if (!read) return admit(sale, input, keyUse);
    if (!read.sale) throw notFound('Sale not found.');
    check(read.sale);
    return admit(read.sale, input, keyUse, {}, read.refunds);
  });
}

/** A refund request: the sale's rules, its admission and first turn, the answer as the turn left it. */
export async function refundSale(
  merchantId: number,
  saleId: number,
  input: RefundInput,
  keyUse: KeyUseOfRefund | null = null,
  now = new Date(),
): Promise<RefundOutcome> {
  const sale = await findSale(merchantId, saleId);
  refuseSale(sale, now);
  const { latest } = await admitWithTurn(sale, input, keyUse, (current) => refuseSale(current, now));
  await recordAdmission(latest);
  return { httpStatus: latest.status === 'pending' ? 202 : 201, refund: presentRefund(latest) };
}
