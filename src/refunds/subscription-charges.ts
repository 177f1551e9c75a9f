/**
 * refundSubscriptionCharge: the contract's charge refund, partial and repeated. The charge's sale
 * (recorded at its first refund, src/subscriptions/charge-refunds.ts) is refunded through the same
 * admission, send lane and VoidedAmount settlement as any sale (admission.ts, sending.ts): a card
 * sale's, or a PIX's for a Pix Automático charge (pending until the acquirer's notice: 202); the
 * lane writes the charge's refunded total back (origins.ts).
 *
 * The answer is the charge, as the contract shows it: 200 once the acquirer settled the refund (3
 * REFUNDED when all of it is back, 1 CONFIRMED with refunded_value otherwise), 202 while the refund
 * waits its turn (5 s after the sale's last one) or its outcome is being confirmed, with a Location
 * of the refund to read. A refund the acquirer refused is 409, as before. No body asks for all that
 * is left, as the contract did: on a charge already REFUNDED, or with the rest already pending, it
 * answers the charge as it is (so a caller repeating the contract's call refunds once). An
 * Idempotency-Key is the sale refunds' (idempotency-keys.ts): a retried partial refund with the same
 * key and value refunds nothing more; with another value it is 422.
 */
import { ApiError, conflict } from '../platform/errors';
import { chargeSaleOf, findCharge } from '../subscriptions/charge-refunds';
import { ChargeStatus, SubscriptionChargeModel } from '../subscriptions/model';
import { chargeView } from '../subscriptions/service';
import type { ChargeAnswer } from '../subscriptions/schemas';
import { refundSale } from './admission';
import { refundSaleWithKey } from './idempotency-keys';
import { RefundModel } from '../payments/refund-model';
import { capturedValueOf } from './sending';
import type { ChargeRefundInput } from './schemas';

export interface ChargeRefundOutcome {
  httpStatus: 200 | 202;
  charge: ChargeAnswer;
  /** The refund this call made, when it made one (its read: GET /api/v1/refunds/{id}/). */
  refundId: number | null;
}

const STATUS_NAMES: Record<number, string> = { 0: '0 PENDING', 1: '1 CONFIRMED', 2: '2 DENIED', 3: '3 REFUNDED' };

export async function refundSubscriptionCharge(
  merchantId: number,
  rawSubscriptionId: unknown,
  rawChargeId: unknown,
  input: ChargeRefundInput = {},
  idempotencyKey?: string,
): Promise<ChargeRefundOutcome> {
  const { sub, charge } = await findCharge(merchantId, rawSubscriptionId, rawChargeId);
  const all = input.value === undefined;
  if (charge.status === ChargeStatus.REFUNDED) {
    if (all) return { httpStatus: 200, charge: chargeView(charge, sub), refundId: null };
    throw new ApiError(422, { detail: 'This charge is already fully refunded.' });
  }
  if (charge.status !== ChargeStatus.CONFIRMED) {
    throw conflict(`Only a CONFIRMED charge can be refunded; this charge is ${STATUS_NAMES[charge.status]}.`);
  }
  const sale = await chargeSaleOf(sub, charge);
  let refund;
  try {
    const refundInput = { value: input.value };
    ({ refund } = idempotencyKey
      ? await refundSaleWithKey(merchantId, sale._id, refundInput, idempotencyKey)
      : await refundSale(merchantId, sale._id, refundInput));
  } catch (error) {
    // All that is left is refunded or pending already: the contract's call answers the charge as it is.
    if (!(all && error instanceof ApiError && error.status === 422)) throw error;
    const refunds = (await RefundModel.find({ saleId: sale._id }, { status: 1, valueCents: 1, kind: 1 }).lean()).filter(
      (r) => r.status !== 'failed',
    );
    // An accepted chargeback's hold is no refund: the 422 naming the chargeback stands, as on the sale's route
    // (before, the hold counted as refunded and the call answered 200 with the charge unchanged).
    if (refunds.some((r) => r.kind === 'chargeback')) throw error;
    const committed = refunds.reduce((sum, r) => sum + r.valueCents, 0);
    if (committed < capturedValueOf(sale)) throw error; // refused for another reason (its window)
    const pending = refunds.some((r) => r.status === 'pending');
    return { httpStatus: pending ? 202 : 200, charge: await chargeNow(sub, charge._id), refundId: null };
  }
  if (refund.status === 'failed') {
    throw conflict(
      `The acquirer did not refund the charge${refund.acquirer_code ? ` (${refund.acquirer_code})` : ''}: ` +
        `${refund.failure_reason ?? 'refused'}`,
    );
  }
  return {
    httpStatus: refund.status === 'pending' ? 202 : 200,
    charge: await chargeNow(sub, charge._id),
    refundId: refund.id,
  };
}

async function chargeNow(sub: Parameters<typeof chargeView>[1], chargeId: number): Promise<ChargeAnswer> {
  return chargeView((await SubscriptionChargeModel.findById(chargeId).lean())!, sub);
}
