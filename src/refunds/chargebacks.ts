/**
 * A refund racing a chargeback acceptance of the same sale (docs/api/refunds.md, "Chargebacks"):
 * accepting a chargeback gives the cardholder the sale's money back through the card scheme, so a
 * refund of the same sale must not give it back again. The accept (src/chargebacks) first takes a
 * hold on the sale's whole captured value under the same admission slots as refunds:
 *
 * - nothing refunded or pending: the hold is admitted; a refund asked from then on is 422, and a
 *   refund that was admitted first made this hold lose its slot (then the accept is 409);
 * - a refund pending (with the acquirer, or waiting its turn): the accept is 409, retry once it settled;
 * - money already refunded: the accept is 409 (accepting would return more than was captured: the
 *   refund is the merchant's evidence to refuse the chargeback).
 *
 * The hold succeeds when the acquirer accepted, and fails (the value free again) when it did not.
 * An accept whose answer never came leaves its hold pending: no refund can pass it, and it counts in
 * needs_attention after 10 minutes, for an operator to settle.
 */
import { ApiError } from '../platform/errors';
import { logger } from '../platform/logger';
import { PaymentModel, type Payment } from '../payments/model';
import { chargeSaleOfTid } from '../subscriptions/charge-tids';
import { admit, recordAdmission } from './admission';
import { RefundModel } from '../payments/refund-model';
import { capturedValueOf } from './sending';

export interface ChargebackHold {
  refundId: number;
  saleId: number;
}

const HOLDABLE = new Set(['CONFIRMED', 'PARTIALLY_REFUNDED', 'REFUNDED']);

/**
 * The sale the acquirer's TID names, whatever made it: a sale of the sales API, a link's (its settled card
 * sale, or the PIX sale that paid it), or a paid subscription charge's (recorded now if no refund did).
 * Every one of them carries its TID from the write that recorded the acquirer's answer.
 */
async function saleOfTid(tid: string): Promise<Payment | null> {
  return (await PaymentModel.findOne({ acquirerTid: tid }).lean()) ?? chargeSaleOfTid(tid);
}

/**
 * Takes the hold of a chargeback about to be accepted on the sale of this TID; null when no paid sale
 * of ours has it (nothing of ours to guard). Throws the 409 that refuses the accept. The method does not
 * matter: whatever payment the acquirer names, its money goes back once.
 */
export async function holdSaleForChargeback(tid: string, chargebackId: string): Promise<ChargebackHold | null> {
  const sale = await saleOfTid(tid);
  if (!sale || !HOLDABLE.has(sale.status)) return null;
  const refunds = await RefundModel.find({ saleId: sale._id }, { status: 1, valueCents: 1, kind: 1 }).lean();
  const refused = (detail: string) => new ApiError(409, { detail }, { 'Retry-After': '5' });
  if (refunds.some((refund) => refund.status === 'pending'))
    throw refused(
      `A refund (or another acceptance) of sale ${sale._id} is in progress: accepting chargeback ${chargebackId} ` +
        'now could return its money twice. Retry once it has settled.',
    );
  const refunded = refunds
    .filter((refund) => refund.status === 'succeeded')
    .reduce((sum, refund) => sum + refund.valueCents, 0);
  if (refunded > 0)
    throw new ApiError(409, {
      detail:
        `Sale ${sale._id} already had ${refunded} cents refunded: accepting chargeback ${chargebackId} would return ` +
        'more than was captured. Refuse it with the refund as evidence.',
    });
  try {
    const hold = await admit(sale, { value: capturedValueOf(sale) }, null, { kind: 'chargeback', chargebackId });
    await recordAdmission(hold);
    return { refundId: hold._id, saleId: sale._id };
  } catch (error) {
    // A refund was admitted between the read and the slot: it wins.
    if (error instanceof ApiError && error.status === 422)
      throw refused(`A refund of sale ${sale._id} was just asked: retry the acceptance once it has settled.`);
    throw error;
  }
}

/** The acquirer's answer to the accept: accepted, the hold stands for good; refused, its value is free again. */
export async function settleChargebackHold(hold: ChargebackHold, accepted: boolean): Promise<void> {
  const now = new Date();
  await RefundModel.updateOne(
    { _id: hold.refundId },
    accepted
      ? { $set: { status: 'succeeded', settledAt: now } }
      : {
          $set: {
            status: 'failed',
            settledAt: now,
            failureReason: 'The acquirer did not accept the chargeback.',
          },
        },
  );
  if (!accepted) logger.info({ saleId: hold.saleId }, 'chargeback not accepted: its hold on the sale is released');
}
